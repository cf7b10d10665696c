/*
 * AES-NI engine: AES-128/192/256 ECB, CBC and CTR with the AES-NI
 * instructions, through compiler intrinsics and, for round instructions
 * with a memory operand, one-instruction inline assembly (see aesni.h for
 * the sources; the block kernels below say why).
 *
 * Everything that touches an XMM register is AESNI_FN (CPUFEAT_FN with
 * the "aes,sse2" target, in .text_cpufeat) or an always-inlined helper of
 * such a function; the engine glue (argument checks, dispatch, wiping) is
 * plain i586 code. AESNI_FN functions also realign the stack on entry: the
 * kernel does not promise the 16-byte stack alignment the compiler assumes
 * for spilled XMM values (movaps/movdqa fault on a misaligned address).
 *
 * Round keys are read with unaligned loads once per call into an aligned
 * array on the stack, which the round instructions take as memory
 * operands, so a session at any address works. Those copies are not wiped
 * on return (nor are the XMM registers); the session's schedules are.
 * GCC may use CMOV in the AESNI_FN functions (every SSE2 CPU has it), so
 * the assembler is told that too; the audit allows it in .text_cpufeat.
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
__asm__(".arch .sse2\n\t.arch .aes\n\t.arch .cmov");

#define AESNI_TARGET	"aes,sse2"
#define AESNI_FN	CPUFEAT_FN(AESNI_TARGET) __attribute__((force_align_arg_pointer))
/* Helpers: always inlined into an AESNI_FN, never emitted on their own. */
#define AESNI_INLINE	static inline __attribute__((always_inline, target(AESNI_TARGET)))

#define BLOCK		16

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

/*
 * Big-endian 64-bit values as two 32-bit loads or stores and BSWAP (i486
 * and later). The freestanding kernel's memcpy() is a call, not one MOV:
 * an unaligned, aliasing 32-bit type gives the plain MOV.
 */
typedef uint32_t __attribute__((may_alias, aligned(1))) u32_una;

static uint64_t load_be64(const uint8_t *p)
{
	return ((uint64_t)__builtin_bswap32(*(const u32_una *)p) << 32) |
	       __builtin_bswap32(*(const u32_una *)(p + 4));
}

static void store_be64(uint8_t *p, uint64_t v)
{
	*(u32_una *)p = __builtin_bswap32((uint32_t)(v >> 32));
	*(u32_una *)(p + 4) = __builtin_bswap32((uint32_t)v);
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

/*
 * ---- block kernels ----
 *
 * 32-bit code has eight XMM registers. The parallel loops keep every block
 * in flight in its own register and take each round key as a memory
 * operand of AESENC & co. (from the call's aligned stack copy, k[]), so no
 * register holds a key and nothing spills: ECB runs ECB_LANES = 8 blocks;
 * CBC decryption and CTR run LANES = 7 and keep the eighth register for
 * the ciphertext or plaintext block their last step XORs in. That XOR
 * rides on the last round: AESENCLAST(x, k ^ p) = AESENCLAST(x, k) ^ p,
 * and likewise for AESDECLAST (Intel SDM vol. 2A: the last step of both
 * is the XOR with the round key operand).
 *
 * The helpers with a memory operand are inline assembly: with intrinsics
 * GCC loads a key into a register once for all lanes, which needs a
 * ninth register. Legacy-SSE memory operands must be 16-byte aligned; k[]
 * is an array of __m128i in a function that realigns its stack.
 */
#define ECB_LANES	8
#define LANES		7

AESNI_INLINE __m128i enc_m(__m128i x, const __m128i *k)
{
	__asm__("aesenc %1, %0" : "+x"(x) : "m"(*k));
	return x;
}

AESNI_INLINE __m128i enclast_m(__m128i x, const __m128i *k)
{
	__asm__("aesenclast %1, %0" : "+x"(x) : "m"(*k));
	return x;
}

AESNI_INLINE __m128i dec_m(__m128i x, const __m128i *k)
{
	__asm__("aesdec %1, %0" : "+x"(x) : "m"(*k));
	return x;
}

AESNI_INLINE __m128i declast_m(__m128i x, const __m128i *k)
{
	__asm__("aesdeclast %1, %0" : "+x"(x) : "m"(*k));
	return x;
}

AESNI_INLINE __m128i xor_m(__m128i x, const __m128i *k)
{
	__asm__("pxor %1, %0" : "+x"(x) : "m"(*k));
	return x;
}

AESNI_INLINE __m128i loadu(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

AESNI_INLINE void storeu(uint8_t *p, __m128i x)
{
	_mm_storeu_si128((__m128i *)p, x);
}

AESNI_INLINE void load_keys(__m128i *k, const struct aesni_key *key)
{
	unsigned i;
	for (i = 0; i <= key->rounds; i++)
		k[i] = loadu(key->rk + BLOCK * i);
}

/*
 * Rounds 1 .. nr - 1 of n lanes, key r from k[r]: an odd one first (nr - 1
 * is odd for every key size), then two per loop iteration.
 */
AESNI_INLINE void enc_rounds(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
	const __m128i *kr = k + 1, *end = k + nr;
	unsigned j;

	if ((nr - 1) & 1) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = enc_m(b[j], kr);
		kr++;
	}
	for (; kr < end; kr += 2) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = enc_m(b[j], kr);
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = enc_m(b[j], kr + 1);
	}
}

/* enc_rounds() for a constant nr: every round unrolled (the rounds of a group). */
AESNI_INLINE void enc_rounds_unrolled(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
	unsigned r, j;

#pragma GCC unroll 14
	for (r = 1; r < nr; r++) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = enc_m(b[j], &k[r]);
	}
}

AESNI_INLINE void dec_rounds(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
	const __m128i *kr = k + 1, *end = k + nr;
	unsigned j;

	if ((nr - 1) & 1) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = dec_m(b[j], kr);
		kr++;
	}
	for (; kr < end; kr += 2) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = dec_m(b[j], kr);
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = dec_m(b[j], kr + 1);
	}
}

/* ECB over n-block groups while at least n blocks remain. */
AESNI_INLINE size_t ecb_step(const __m128i *k, unsigned nr, bool enc, unsigned n,
			     const uint8_t **in, uint8_t **out, size_t len)
{
	__m128i b[ECB_LANES];
	unsigned j;

	while (len >= BLOCK * n) {
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			b[j] = xor_m(loadu(*in + BLOCK * j), &k[0]);
		if (enc)
			enc_rounds(b, n, k, nr);
		else
			dec_rounds(b, n, k, nr);
#pragma GCC unroll 8
		for (j = 0; j < n; j++)
			storeu(*out + BLOCK * j, enc ? enclast_m(b[j], &k[nr]) : declast_m(b[j], &k[nr]));
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
	len = ecb_step(k, nr, enc, ECB_LANES, &in, &out, len);
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
	unsigned nr = enc->rounds;

	load_keys(k, enc);
	x = loadu(iv);
	for (; len >= BLOCK; len -= BLOCK, in += BLOCK, out += BLOCK) {
		/*
		 * C[i] = E(P[i] ^ C[i-1]): the next block needs this one, so
		 * the chain's latency is the speed. P[i] ^ round key 0 does
		 * not depend on C[i-1]: computed apart, it leaves one XOR
		 * instead of two between the rounds of consecutive blocks.
		 */
		__m128i t = xor_m(loadu(in), &k[0]);
		x = _mm_xor_si128(x, t);
		enc_rounds(&x, 1, k, nr);
		x = enclast_m(x, &k[nr]);
		storeu(out, x);
	}
	storeu(iv, x);
}

/*
 * CBC decryption of n-block groups: P[i] = D(C[i]) ^ C[i-1], all
 * independent. The last round takes k[nr] ^ C[i-1] as its key. Lanes
 * finish from the last to the first, so with in == out each C[i-1] is
 * read before P[i-1] overwrites it. prev[0] (aligned memory) holds the
 * C[-1] of the group, prev[1] takes the group's last block for the next.
 */
AESNI_INLINE size_t cbc_dec_step(const __m128i *k, unsigned nr, unsigned n, __m128i *prev,
				 const uint8_t **in, uint8_t **out, size_t len)
{
	__m128i b[LANES], t;
	int j;

	while (len >= BLOCK * n) {
#pragma GCC unroll 8
		for (j = 0; j < (int)n; j++)
			b[j] = xor_m(loadu(*in + BLOCK * j), &k[0]);
		dec_rounds(b, n, k, nr);
		_mm_store_si128(&prev[1], loadu(*in + BLOCK * (n - 1)));
#pragma GCC unroll 8
		for (j = (int)n - 1; j >= 1; j--) {
			t = xor_m(loadu(*in + BLOCK * (j - 1)), &k[nr]);
			storeu(*out + BLOCK * j, _mm_aesdeclast_si128(b[j], t));
		}
		t = xor_m(_mm_load_si128(&prev[0]), &k[nr]);
		storeu(*out, _mm_aesdeclast_si128(b[0], t));
		_mm_store_si128(&prev[0], _mm_load_si128(&prev[1]));
		*in += BLOCK * n;
		*out += BLOCK * n;
		len -= BLOCK * n;
	}
	return len;
}

AESNI_FN void aesni_cbc_decrypt(const struct aesni_key *dec, uint8_t iv[16],
				const uint8_t *in, uint8_t *out, size_t len)
{
	__m128i k[AESNI_MAX_ROUNDS + 1], prev[2];
	unsigned nr = dec->rounds;

	load_keys(k, dec);
	prev[0] = loadu(iv);
	len = cbc_dec_step(k, nr, LANES, prev, &in, &out, len);
	cbc_dec_step(k, nr, 1, prev, &in, &out, len);
	storeu(iv, prev[0]);
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

/*
 * CTR over LANES-block groups while at least LANES blocks remain and the
 * low 32 bits of the counter do not carry within the group (nor into the
 * next value). The counter's bytes 0-11 are then the same for the whole
 * group: base[0] (aligned memory) holds them with bytes 12-15 zero, base[1]
 * the same XORed with round key 0. A lane's block is the 32-bit
 * big-endian tail lo + j put into bytes 12-15 (MOVD to the low dword,
 * PSLLDQ by 12 bytes, SSE2). When byte 15 does not wrap within the group,
 * lanes 1 .. LANES-1 are lane 0's block plus j in byte 15 instead (PADDD
 * of j << 24 on the high dword, whose top byte is byte 15). The last round
 * takes k[nr] ^ P[i] as its key.
 */
static const __m128i ctr_inc[LANES] = {
	{ 0, 0 }, { 0, 1ll << 56 }, { 0, 2ll << 56 }, { 0, 3ll << 56 },
	{ 0, 4ll << 56 }, { 0, 5ll << 56 }, { 0, 6ll << 56 },
};

AESNI_INLINE size_t ctr_groups_nr(const __m128i *k, unsigned nr, const __m128i *base,
				  struct ctr128 *c, const uint8_t **in, uint8_t **out, size_t len)
{
	__m128i b[LANES], t;
	uint32_t lo = (uint32_t)c->lo;	/* does not wrap in the loop: its condition */
	unsigned j;

	while (len >= BLOCK * LANES && lo <= 0xffffffffu - LANES) {
		if ((lo & 0xff) <= 0xff - (LANES - 1)) {
			t = _mm_cvtsi32_si128((int)__builtin_bswap32(lo));
			t = _mm_or_si128(_mm_slli_si128(t, 12), _mm_load_si128(&base[0]));
#pragma GCC unroll 8
			for (j = 1; j < LANES; j++)
				b[j] = xor_m(_mm_add_epi32(t, ctr_inc[j]), &k[0]);
			b[0] = xor_m(t, &k[0]);
		} else {
#pragma GCC unroll 8
			for (j = 0; j < LANES; j++) {
				b[j] = _mm_cvtsi32_si128((int)__builtin_bswap32(lo + j));
				b[j] = xor_m(_mm_slli_si128(b[j], 12), &base[1]);
			}
		}
		enc_rounds_unrolled(b, LANES, k, nr);
#pragma GCC unroll 8
		for (j = 0; j < LANES; j++) {
			t = xor_m(loadu(*in + BLOCK * j), &k[nr]);
			storeu(*out + BLOCK * j, _mm_aesenclast_si128(b[j], t));
		}
		lo += LANES;
		*in += BLOCK * LANES;
		*out += BLOCK * LANES;
		len -= BLOCK * LANES;
	}
	c->lo += lo - (uint32_t)c->lo;
	return len;
}

/*
 * ctr_groups_nr() with nr a constant in each branch, so that its rounds
 * unroll: no loop counter between the rounds of a group.
 */
AESNI_INLINE size_t ctr_groups(const __m128i *k, unsigned nr, const __m128i *base,
			       struct ctr128 *c, const uint8_t **in, uint8_t **out, size_t len)
{
	if (nr == NR(4))
		return ctr_groups_nr(k, NR(4), base, c, in, out, len);
	if (nr == NR(6))
		return ctr_groups_nr(k, NR(6), base, c, in, out, len);
	return ctr_groups_nr(k, NR(8), base, c, in, out, len);
}

/* One keystream block for the counter's current value (which advances). */
AESNI_INLINE __m128i ctr_block_nr(const __m128i *k, unsigned nr, struct ctr128 *c)
{
	__m128i b = xor_m(next_counter(c), &k[0]);

	enc_rounds_unrolled(&b, 1, k, nr);
	return enclast_m(b, &k[nr]);
}

/* ctr_block_nr() with its rounds unrolled for each key size: a short call's cost. */
AESNI_INLINE __m128i ctr_block(const __m128i *k, unsigned nr, struct ctr128 *c)
{
	if (nr == NR(4))
		return ctr_block_nr(k, NR(4), c);
	if (nr == NR(6))
		return ctr_block_nr(k, NR(6), c);
	return ctr_block_nr(k, NR(8), c);
}

AESNI_FN void aesni_ctr(const struct aesni_key *enc, uint8_t counter[16],
			const uint8_t *in, uint8_t *out, size_t len)
{
	__m128i k[AESNI_MAX_ROUNDS + 1], base[2], b;
	unsigned nr = enc->rounds;
	struct ctr128 c;
	uint8_t ks[BLOCK];
	size_t i;

	load_keys(k, enc);
	c.hi = load_be64(counter);
	c.lo = load_be64(counter + 8);
	for (;;) {
		if (len >= BLOCK * LANES) {
			/* Bytes 0-11 of the counter, 12-15 zero; and ^ round key 0. */
			base[0] = _mm_set_epi64x((long long)__builtin_bswap64(c.lo & ~0xffffffffull),
						 (long long)__builtin_bswap64(c.hi));
			base[1] = xor_m(base[0], &k[0]);
			len = ctr_groups(k, nr, base, &c, &in, &out, len);
		}
		if (len < BLOCK)
			break;
		/* Fewer than LANES blocks left, or a carry out of the low 32 bits. */
		storeu(out, _mm_xor_si128(ctr_block(k, nr, &c), loadu(in)));
		in += BLOCK;
		out += BLOCK;
		len -= BLOCK;
	}
	if (len > 0) {
		/* Partial last block: the first len bytes of one keystream block. */
		b = ctr_block(k, nr, &c);
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
	.description = "AES-NI instructions (AESENC/AESDEC/AESKEYGENASSIST/AESIMC), 7-8 blocks in flight",
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
