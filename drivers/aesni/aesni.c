/*
 * AES-NI engine: AES-128/192/256 ECB, CBC and CTR with the AES-NI
 * instructions, through compiler intrinsics (see aesni.h for the sources).
 *
 * Everything that touches an XMM register is AESNI_FN (CPUFEAT_FN with
 * the "aes,sse2" target, in .text_cpufeat) or an always-inlined helper of
 * such a function; the engine glue (argument checks, dispatch, wiping) is
 * plain i586 code. AESNI_FN functions also realign the stack on entry: the
 * kernel does not promise the 16-byte stack alignment the compiler assumes
 * for spilled XMM values (movaps/movdqa fault on a misaligned address).
 *
 * Round keys are read with unaligned loads once per call into locals; the
 * compiler keeps them in registers or in its own aligned stack slots, so a
 * session at any address works. Those copies are not wiped on return
 * (nor are the XMM registers); the session's schedules are.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * GCC's xmmintrin.h includes mm_malloc.h, which includes the C library's
 * stdlib.h. The freestanding kernel has no C library and uses no
 * _mm_malloc, so there mark that header as already included.
 */
#if !__STDC_HOSTED__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <wmmintrin.h>		/* AES-NI; includes emmintrin.h (SSE2) */

#include "kernel/platform/cpufeat.h"
#include "drivers/aesni/aesni.h"
#include "lib/engine/driver.h"

/*
 * The kernel is assembled with -Wa,-march=i586, which rejects the SSE2 and
 * AES-NI instructions GCC emits for AESNI_FN functions. Allow them for this
 * file (GCC outputs top-level asm before any function); the instruction
 * audit (scripts/insn-audit.sh) still checks that they appear only in
 * .text_cpufeat.
 */
__asm__(".arch .sse2\n\t.arch .aes");

#define AESNI_TARGET	"aes,sse2"
#define AESNI_FN	CPUFEAT_FN(AESNI_TARGET) __attribute__((force_align_arg_pointer))
/* Helpers: always inlined into an AESNI_FN, never emitted on their own. */
#define AESNI_INLINE	static inline __attribute__((always_inline, target(AESNI_TARGET)))

#define BLOCK		16
#define LANES		8	/* blocks in flight in the parallel loops */
#define LANES_HALF	4	/* the next step for a shorter remainder */

/* Nr rounds for a key of Nk 32-bit words (4, 6, 8), FIPS-197 Figure 4. */
#define NR(nk)	((nk) + 6)

/* ---- plain i586 helpers ---- */

/* memset that the compiler cannot drop as a dead store. */
static void wipe(void *p, size_t n)
{
	volatile uint8_t *v = p;
	while (n--)
		*v++ = 0;
}

void aesni_wipe_key(struct aesni_key *k)
{
	wipe(k, sizeof(*k));
}

static uint64_t load_be64(const uint8_t *p)
{
	uint64_t v = 0;
	unsigned i;
	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
	int i;
	for (i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* ---- key expansion ---- */

/*
 * AESKEYGENASSIST with RCON 0 on a register whose dword 1 (X1) is w gives
 * SubWord(w) in dword 0 and RotWord(SubWord(w)) in dword 1 (Intel SDM vol.
 * 2A, AESKEYGENASSIST). RotWord(SubWord(w)) = SubWord(RotWord(w)).
 */
AESNI_INLINE uint32_t sub_word(uint32_t w, bool rot)
{
	__m128i v = _mm_aeskeygenassist_si128(_mm_set_epi32(0, 0, (int)w, 0), 0);
	if (rot)
		v = _mm_srli_si128(v, 4);
	return (uint32_t)_mm_cvtsi128_si32(v);
}

/*
 * FIPS-197 5.2 KeyExpansion over 32-bit words, bytes in memory order (a
 * little-endian word holds the bytes of one column, row 0 lowest), then
 * the decryption schedule of 5.3.5 with AESIMC (InvMixColumns).
 */
AESNI_FN static void expand(struct aesni_key *enc, struct aesni_key *dec,
			    const uint8_t *key, unsigned nk)
{
	uint32_t w[4 * (AESNI_MAX_ROUNDS + 1)];
	unsigned nr = NR(nk), n = 4 * (nr + 1), i;
	uint32_t rcon = 0x01, t;

	memcpy(w, key, 4 * nk);
	for (i = nk; i < n; i++) {
		t = w[i - 1];
		if (i % nk == 0) {
			t = sub_word(t, true) ^ rcon;
			rcon = (rcon << 1) ^ ((rcon & 0x80) ? 0x11B : 0);	/* xtime */
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t, false);
		}
		w[i] = w[i - nk] ^ t;
	}
	memcpy(enc->rk, w, 16 * (nr + 1));
	enc->rounds = nr;
	wipe(w, sizeof(w));
	if (!dec)
		return;
	/* dw[0] = w[Nr], dw[r] = InvMixColumns(w[Nr - r]), dw[Nr] = w[0]. */
	memcpy(dec->rk, enc->rk + 16 * nr, 16);
	for (i = 1; i < nr; i++) {
		__m128i k = _mm_loadu_si128((const __m128i *)(enc->rk + 16 * (nr - i)));
		_mm_storeu_si128((__m128i *)(dec->rk + 16 * i), _mm_aesimc_si128(k));
	}
	memcpy(dec->rk + 16 * nr, enc->rk, 16);
	dec->rounds = nr;
}

int aesni_expand_key(struct aesni_key *enc, struct aesni_key *dec,
		     const uint8_t *key, unsigned key_bits)
{
	if (key_bits != 128 && key_bits != 192 && key_bits != 256)
		return ENGINE_EKEY;
	expand(enc, dec, key, key_bits / 32);
	return 0;
}

/* ---- block kernels: n blocks (1, 4 or 8, a constant) in flight ---- */

AESNI_INLINE void load_keys(__m128i *k, const struct aesni_key *key)
{
	unsigned i;
	for (i = 0; i <= key->rounds; i++)
		k[i] = _mm_loadu_si128((const __m128i *)(key->rk + BLOCK * i));
}

AESNI_INLINE void encrypt_lanes(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
	unsigned r, j;
#pragma GCC unroll 8
	for (j = 0; j < n; j++)
		b[j] = _mm_xor_si128(b[j], k[0]);
	for (r = 1; r < nr; r++) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = _mm_aesenc_si128(b[j], k[r]);
	}
#pragma GCC unroll 8
	for (j = 0; j < n; j++)
		b[j] = _mm_aesenclast_si128(b[j], k[nr]);
}

AESNI_INLINE void decrypt_lanes(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
	unsigned r, j;
#pragma GCC unroll 8
	for (j = 0; j < n; j++)
		b[j] = _mm_xor_si128(b[j], k[0]);
	for (r = 1; r < nr; r++) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = _mm_aesdec_si128(b[j], k[r]);
	}
#pragma GCC unroll 8
	for (j = 0; j < n; j++)
		b[j] = _mm_aesdeclast_si128(b[j], k[nr]);
}

AESNI_INLINE void load_lanes(__m128i *b, unsigned n, const uint8_t *in)
{
	unsigned j;
#pragma GCC unroll 8
	for (j = 0; j < n; j++)
		b[j] = _mm_loadu_si128((const __m128i *)(in + BLOCK * j));
}

AESNI_INLINE void store_lanes(uint8_t *out, const __m128i *b, unsigned n)
{
	unsigned j;
#pragma GCC unroll 8
	for (j = 0; j < n; j++)
		_mm_storeu_si128((__m128i *)(out + BLOCK * j), b[j]);
}

/* ECB over n-block groups while at least n blocks remain. */
AESNI_INLINE size_t ecb_step(const __m128i *k, unsigned nr, bool enc, unsigned n,
			     const uint8_t **in, uint8_t **out, size_t len)
{
	__m128i b[LANES];
	while (len >= BLOCK * n) {
		load_lanes(b, n, *in);
		if (enc)
			encrypt_lanes(b, n, k, nr);
		else
			decrypt_lanes(b, n, k, nr);
		store_lanes(*out, b, n);
		*in += BLOCK * n;
		*out += BLOCK * n;
		len -= BLOCK * n;
	}
	return len;
}

AESNI_INLINE void ecb(const struct aesni_key *key, bool enc, const uint8_t *in,
		      uint8_t *out, size_t len)
{
	__m128i k[AESNI_MAX_ROUNDS + 1];
	unsigned nr = key->rounds;

	load_keys(k, key);
	len = ecb_step(k, nr, enc, LANES, &in, &out, len);
	len = ecb_step(k, nr, enc, LANES_HALF, &in, &out, len);
	ecb_step(k, nr, enc, 1, &in, &out, len);
}

AESNI_FN void aesni_ecb_encrypt(const struct aesni_key *enc, const uint8_t *in, uint8_t *out,
				size_t len)
{
	ecb(enc, true, in, out, len);
}

AESNI_FN void aesni_ecb_decrypt(const struct aesni_key *dec, const uint8_t *in, uint8_t *out,
				size_t len)
{
	ecb(dec, false, in, out, len);
}

/* ---- CBC ---- */

AESNI_FN void aesni_cbc_encrypt(const struct aesni_key *enc, uint8_t iv[16],
				const uint8_t *in, uint8_t *out, size_t len)
{
	__m128i k[AESNI_MAX_ROUNDS + 1], x;
	unsigned nr = enc->rounds, r;

	load_keys(k, enc);
	x = _mm_loadu_si128((const __m128i *)iv);
	for (; len >= BLOCK; len -= BLOCK, in += BLOCK, out += BLOCK) {
		/*
		 * C[i] = E(P[i] ^ C[i-1]): the next block needs this one, so
		 * the chain's latency is the speed. P[i] ^ round key 0 does
		 * not depend on C[i-1]: computed apart, it leaves one XOR
		 * instead of two between the rounds of consecutive blocks.
		 */
		__m128i t = _mm_xor_si128(_mm_loadu_si128((const __m128i *)in), k[0]);
		__asm__("" : "+x"(t));	/* keep GCC from reassociating the XORs */
		x = _mm_xor_si128(x, t);
		for (r = 1; r < nr; r++)
			x = _mm_aesenc_si128(x, k[r]);
		x = _mm_aesenclast_si128(x, k[nr]);
		_mm_storeu_si128((__m128i *)out, x);
	}
	_mm_storeu_si128((__m128i *)iv, x);
}

/* CBC decryption of n-block groups: P[i] = D(C[i]) ^ C[i-1], all independent. */
AESNI_INLINE size_t cbc_dec_step(const __m128i *k, unsigned nr, unsigned n, __m128i *prev,
				 const uint8_t **in, uint8_t **out, size_t len)
{
	__m128i c[LANES], b[LANES];
	unsigned j;
	while (len >= BLOCK * n) {
		load_lanes(c, n, *in);		/* all read before any write: in == out works */
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = c[j];
		decrypt_lanes(b, n, k, nr);
		b[0] = _mm_xor_si128(b[0], *prev);
#pragma GCC unroll 8
		for (j = 1; j < n; j++)
			b[j] = _mm_xor_si128(b[j], c[j - 1]);
		*prev = c[n - 1];
		store_lanes(*out, b, n);
		*in += BLOCK * n;
		*out += BLOCK * n;
		len -= BLOCK * n;
	}
	return len;
}

AESNI_FN void aesni_cbc_decrypt(const struct aesni_key *dec, uint8_t iv[16],
				const uint8_t *in, uint8_t *out, size_t len)
{
	__m128i k[AESNI_MAX_ROUNDS + 1], prev;
	unsigned nr = dec->rounds;

	load_keys(k, dec);
	prev = _mm_loadu_si128((const __m128i *)iv);
	len = cbc_dec_step(k, nr, LANES, &prev, &in, &out, len);
	len = cbc_dec_step(k, nr, LANES_HALF, &prev, &in, &out, len);
	cbc_dec_step(k, nr, 1, &prev, &in, &out, len);
	_mm_storeu_si128((__m128i *)iv, prev);
}

/* ---- CTR ---- */

/*
 * The counter block as two 64-bit halves of the 128-bit big-endian
 * integer (SP 800-38A B.1). next_counter() returns the block for the
 * current value and increments it, carrying from the low half into the
 * high half.
 */
struct ctr128 {
	uint64_t hi, lo;
};

AESNI_INLINE __m128i next_counter(struct ctr128 *c)
{
	/* Bytes 0-7 are hi, 8-15 lo, each most significant byte first. */
	__m128i b = _mm_set_epi64x((long long)__builtin_bswap64(c->lo),
				   (long long)__builtin_bswap64(c->hi));
	if (++c->lo == 0)
		c->hi++;
	return b;
}

AESNI_INLINE size_t ctr_step(const __m128i *k, unsigned nr, unsigned n, struct ctr128 *c,
			     const uint8_t **in, uint8_t **out, size_t len)
{
	__m128i b[LANES], p[LANES];
	unsigned j;
	while (len >= BLOCK * n) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = next_counter(c);
		encrypt_lanes(b, n, k, nr);
		load_lanes(p, n, *in);
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = _mm_xor_si128(b[j], p[j]);
		store_lanes(*out, b, n);
		*in += BLOCK * n;
		*out += BLOCK * n;
		len -= BLOCK * n;
	}
	return len;
}

AESNI_FN void aesni_ctr(const struct aesni_key *enc, uint8_t counter[16],
			const uint8_t *in, uint8_t *out, size_t len)
{
	__m128i k[AESNI_MAX_ROUNDS + 1], b;
	unsigned nr = enc->rounds;
	struct ctr128 c;
	uint8_t ks[BLOCK];
	size_t i;

	load_keys(k, enc);
	c.hi = load_be64(counter);
	c.lo = load_be64(counter + 8);
	len = ctr_step(k, nr, LANES, &c, &in, &out, len);
	len = ctr_step(k, nr, LANES_HALF, &c, &in, &out, len);
	len = ctr_step(k, nr, 1, &c, &in, &out, len);
	if (len > 0) {
		/* Partial last block: the first len bytes of one keystream block. */
		b = next_counter(&c);
		encrypt_lanes(&b, 1, k, nr);
		_mm_storeu_si128((__m128i *)ks, b);
		for (i = 0; i < len; i++)
			out[i] = in[i] ^ ks[i];
		wipe(ks, sizeof(ks));
	}
	store_be64(counter, c.hi);
	store_be64(counter + 8, c.lo);
}

/* ---- the engine ---- */

/* The session private area: both schedules (aesni.h struct aesni_key). */
struct aesni_session {
	struct aesni_key enc;
	struct aesni_key dec;
};
_Static_assert(sizeof(struct aesni_session) <= AES_SESSION_PRIV_BYTES,
	       "aesni schedules do not fit in aes_session.priv");

static struct aesni_session *session_keys(struct aes_session *s)
{
	return (struct aesni_session *)(void *)s->priv;
}

static int aesni_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	struct aesni_session *ks = session_keys(s);
	int rc = aesni_expand_key(&ks->enc, &ks->dec, key, key_bits);
	if (rc != 0)
		return rc;
	s->engine = &aesni_engine;
	s->key_bits = key_bits;
	return ENGINE_OK;
}

static int aesni_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		       uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	struct aesni_session *ks = session_keys(s);
	bool enc = dir == AES_DIR_ENCRYPT;

	if (!aes_engine_supports(&aesni_engine, s->key_bits, mode, dir))
		return ENGINE_EUNSUPPORTED;
	if (len % AES_BLOCK_BYTES != 0)
		return ENGINE_ELEN;
	if (mode != AES_MODE_ECB && iv == NULL)
		return ENGINE_EUNSUPPORTED;
	switch (mode) {
	case AES_MODE_ECB:
		if (enc)
			aesni_ecb_encrypt(&ks->enc, in, out, len);
		else
			aesni_ecb_decrypt(&ks->dec, in, out, len);
		return ENGINE_OK;
	case AES_MODE_CBC:
		if (enc)
			aesni_cbc_encrypt(&ks->enc, iv, in, out, len);
		else
			aesni_cbc_decrypt(&ks->dec, iv, in, out, len);
		return ENGINE_OK;
	case AES_MODE_CTR:
		aesni_ctr(&ks->enc, iv, in, out, len);
		return ENGINE_OK;
	default:
		return ENGINE_EUNSUPPORTED;
	}
}

static void aesni_release(struct aes_session *s)
{
	wipe(s->priv, sizeof(struct aesni_session));
	s->key_bits = 0;
}

#define AESNI_PAIRS \
	(AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_ENCRYPT) | AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_DECRYPT) | \
	 AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT) | AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_DECRYPT) | \
	 AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_ENCRYPT) | AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_DECRYPT))

const struct aes_engine aesni_engine = {
	.name = "aesni",
	.description = "AES-NI instructions (AESENC/AESDEC/AESKEYGENASSIST/AESIMC), 8 blocks in flight",
	.supported = { AESNI_PAIRS, AESNI_PAIRS, AESNI_PAIRS },
	.align = 1,
	.max_len = 0,
	.ctx = NULL,
	.set_key = aesni_set_key,
	.crypt = aesni_crypt,
	.release = aesni_release,
};

const char *aesni_absent_reason(const struct cpu_info *cpu)
{
	if (!cpu->aesni)
		return "CPUID.1:ECX.AES is clear";
	if (!cpu->sse2)
		return "CPUID.1:EDX.SSE2 is clear";
	return NULL;
}

const char *aesni_probe(const struct cpu_info *cpu)
{
	const char *why = aesni_absent_reason(cpu);
	int rc;

	if (why)
		return why;
	rc = engine_register_aes(&aesni_engine);
	return rc == 0 ? NULL : engine_strerror(rc);
}

/* The driver interface (lib/engine/driver.h): one unit, the AES-NI engine. */
static void aesni_driver_probe(const struct driver_facts *f, struct driver_probe *out)
{
	const char *why = aesni_absent_reason(f->cpu);

	if (!why && !f->sse_enabled)
		why = "SSE could not be enabled (CR0/CR4)";
	if (!why)
		why = aesni_probe(f->cpu);
	if (why)
		driver_unit(out, "kat: aesni (AES-NI engine)", "%s", why);
	else
		driver_unit(out, "kat: aesni (AES-NI engine)", NULL);
}

const struct driver aesni_driver = {
	.name = "aesni",
	.probe = aesni_driver_probe,
};
