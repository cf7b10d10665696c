/*
 * padlock-ace: AES through rep xcrypt (ACE, and CTR on ACE2).
 *
 * Keys [PG][LAES][OSSL]: AES-128 goes to the unit raw (KEYGN = 0, the unit
 * expands it for both directions); AES-192/256 as software schedules
 * (KEYGN = 1): lib/aes's FIPS-197 5.2 schedule for encryption, CFB and OFB,
 * and its equivalent inverse cipher schedule (5.3.5, in the order
 * decryption uses it) for ECB/CBC decryption, each word stored in natural
 * byte order (lib/aes keeps row 0 in bits 0-7: little-endian stores). The
 * control word of CFB decryption has the decrypt bit with the encryption
 * schedule; OFB and CTR always encrypt.
 *
 * Quirks handled (each has a padlock_quirks switch for the host tests):
 *   - the unit caches key and control word until EFLAGS is written: the
 *     driver remembers what the unit last loaded (key buffer, control word,
 *     the session's key generation) and reloads on any change;
 *   - every operand must be 16-byte aligned: unaligned caller buffers go
 *     through an aligned bounce buffer;
 *   - the unit reads past the end of the input (PADLOCK_FETCH_*): an input
 *     whose end lies within that distance of a page end has its tail
 *     processed in the bounce buffer, which has the slack after it;
 *   - CR0.TS/EM cleared around the instructions (padlock_enter).
 * The IV lives in an aligned driver buffer during an operation; the next IV
 * is taken from the returned EAX (CBC encryption leaves EAX at the last
 * output block). CTR: the driver splits a call where the low 32 bits of the
 * counter wrap and computes the next counter itself (the hardware counter
 * format beyond one 32-bit increment is not documented: (check)).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/crypto/aes.h"
#include "lib/engine/engine.h"
#include "drivers/padlock/padlock_insn.h"
#include "drivers/padlock/padlock_int.h"
#include "drivers/padlock/padlock_reg.h"

#define ACE_BOUNCE_BYTES	4096	/* one bounce chunk, a multiple of 16 */

struct ace_cword {
	uint32_t w[4];			/* w[0] the control bits, w[1..3] zero */
} __attribute__((aligned(PADLOCK_ALIGN)));

/* The session's private area (aes_session.priv, 16-byte aligned). */
struct ace_session {
	uint8_t key_enc[PADLOCK_KEYBUF_BYTES];	/* raw AES-128 key, or encryption schedule */
	uint8_t key_dec[PADLOCK_KEYBUF_BYTES];	/* decryption schedule (192/256) */
	struct ace_cword cw_enc, cw_dec;
	uint32_t gen;				/* key generation, never 0 once set */
	bool keygn;				/* software schedules (192/256) */
};

_Static_assert(sizeof(struct ace_session) <= AES_SESSION_PRIV_BYTES,
	       "struct ace_session must fit in aes_session.priv");

/* What the unit last loaded: reload when the next operation differs. */
static struct {
	bool valid;
	const void *key, *cw;
	uint32_t gen;
} loaded;
static uint32_t next_gen = 1;

/* Work buffers: the IV during an operation, and the bounce buffer with
 * the prefetch slack after it. */
static uint8_t ace_iv[AES_BLOCK_BYTES] __attribute__((aligned(PADLOCK_ALIGN)));
static uint8_t ace_bounce[ACE_BOUNCE_BYTES + PADLOCK_FETCH_ECB_BYTES]
	__attribute__((aligned(PADLOCK_ALIGN)));

static int ace_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits);
static int ace_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		     uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);
static void ace_release(struct aes_session *s);

static struct aes_engine ace_engine = {
	.name = "padlock-ace",
	.description = "VIA PadLock ACE (rep xcrypt; hardware key expansion for AES-128)",
	.align = 1,
	.max_len = 0,
	.set_key = ace_set_key,
	.crypt = ace_crypt,
	.release = ace_release,
};

static struct ace_session *ace_priv(struct aes_session *s)
{
	return (struct ace_session *)(void *)s->priv;
}

/* memset that the compiler cannot drop as a dead store. */
static void wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

static void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void store_schedule(uint8_t *dst, const uint32_t *words, unsigned rounds)
{
	unsigned i;
	for (i = 0; i < 4 * (rounds + 1); i++)
		store_le32(dst + 4 * i, words[i]);
}

int padlock_ace_register(bool ctr)
{
	uint32_t pairs = 0;
	unsigned k;
	enum aes_mode m;

	for (m = AES_MODE_ECB; m <= AES_MODE_OFB; m++)
		pairs |= AES_TRIPLE_BIT(m, AES_DIR_ENCRYPT) | AES_TRIPLE_BIT(m, AES_DIR_DECRYPT);
	if (ctr)
		pairs |= AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_ENCRYPT) |
			 AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_DECRYPT);
	for (k = 0; k < AES_KEYSIZES; k++)
		ace_engine.supported[k] = pairs;
	ace_engine.description = ctr ?
		"VIA PadLock ACE2 (rep xcrypt incl. CTR; hardware key expansion for AES-128)" :
		"VIA PadLock ACE (rep xcrypt; hardware key expansion for AES-128)";
	return engine_register_aes(&ace_engine);
}

void padlock_ace_forget(void)
{
	loaded.valid = false;
}

static int ace_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	struct ace_session *a = ace_priv(s);
	unsigned k = aes_keysize_index(key_bits);
	unsigned rounds = 10 + 2 * k;	/* FIPS-197 Figure 4 */
	uint32_t cw;
	struct aes_ctx ctx;

	if (k >= AES_KEYSIZES)
		return ENGINE_EKEY;
	wipe(a, sizeof(*a));
	cw = rounds | (k << CW_KSIZE_SHIFT);
	if (key_bits == 128) {
		memcpy(a->key_enc, key, 16);
	} else {
		if (aes_set_key(&ctx, key, key_bits / 8) != 0)
			return ENGINE_EKEY;
		store_schedule(a->key_enc, ctx.ek, rounds);
		store_schedule(a->key_dec, ctx.dk, rounds);
		aes_wipe(&ctx);
		cw |= CW_KEYGN;
		a->keygn = true;
	}
	a->cw_enc.w[0] = cw;
	a->cw_dec.w[0] = cw | CW_DECRYPT;
	a->gen = next_gen++;
	if (next_gen == 0)
		next_gen = 1;
	s->key_bits = key_bits;
	return ENGINE_OK;
}

static void ace_release(struct aes_session *s)
{
	struct ace_session *a = ace_priv(s);
	if (loaded.valid && loaded.gen == a->gen)
		loaded.valid = false;
	wipe(a, sizeof(*a));
}

/* The pushf/popf reload, when what the unit holds is not (key, cw, gen). */
static void ace_load(const void *key, const void *cw, uint32_t gen)
{
	if (!PADLOCK_QUIRK(no_reload) &&
	    (!loaded.valid || loaded.key != key || loaded.cw != cw || loaded.gen != gen))
		padlock_reload_key();
	loaded.valid = true;
	loaded.key = key;
	loaded.cw = cw;
	loaded.gen = gen;
}

/* 2^32 minus the low 32 bits of the big-endian counter: blocks before they wrap. */
static uint64_t ctr_room(const uint8_t c[16])
{
	uint32_t low = (uint32_t)c[12] << 24 | (uint32_t)c[13] << 16 | (uint32_t)c[14] << 8 | c[15];
	return (1ull << 32) - low;
}

/* c += n as a 128-bit big-endian integer (SP 800-38A B.1). */
static void ctr_add(uint8_t c[16], uint32_t n)
{
	uint32_t carry = n;
	int i;
	for (i = 15; i >= 0 && carry; i--) {
		uint32_t v = c[i] + (carry & 0xFF);
		c[i] = (uint8_t)v;
		carry = (carry >> 8) + (v >> 8);
	}
}

/* One run of the instruction on aligned buffers; keeps ace_iv current. */
static void ace_xcrypt(enum aes_mode mode, const void *key, const void *cw,
		       const uint8_t *in, uint8_t *out, size_t blocks)
{
	uint8_t *next;
	uint8_t before[AES_BLOCK_BYTES];
	uint32_t n;

	switch (mode) {
	case AES_MODE_ECB:
		padlock_xcrypt_ecb(in, out, key, cw, NULL, (uint32_t)blocks);
		return;
	case AES_MODE_CBC:
		next = padlock_xcrypt_cbc(in, out, key, cw, ace_iv, (uint32_t)blocks);
		break;
	case AES_MODE_CFB128:
		next = padlock_xcrypt_cfb(in, out, key, cw, ace_iv, (uint32_t)blocks);
		break;
	case AES_MODE_OFB:
		next = padlock_xcrypt_ofb(in, out, key, cw, ace_iv, (uint32_t)blocks);
		break;
	case AES_MODE_CTR:
		while (blocks) {
			uint64_t room = ctr_room(ace_iv);
			n = (uint32_t)(blocks < room ? blocks : room);
			memcpy(before, ace_iv, sizeof(before));
			padlock_xcrypt_ctr(in, out, key, cw, ace_iv, n);
			memcpy(ace_iv, before, sizeof(before));
			ctr_add(ace_iv, n);
			in += (size_t)n * AES_BLOCK_BYTES;
			out += (size_t)n * AES_BLOCK_BYTES;
			blocks -= n;
		}
		return;
	default:
		return;
	}
	if (next != ace_iv)
		memcpy(ace_iv, next, AES_BLOCK_BYTES);
}

static bool aligned(const void *p)
{
	return ((uintptr_t)p & (PADLOCK_ALIGN - 1)) == 0;
}

/*
 * Bytes from the start of in that the unit may take in place: all of
 * them when in and out are aligned and the prefetch past the end stays in
 * the page of the last byte; else all but the last `fetch` bytes; 0 when
 * the buffers are unaligned or the whole input is within `fetch` bytes of
 * the page end.
 */
static size_t direct_bytes(const uint8_t *in, const uint8_t *out, size_t len, size_t fetch)
{
	uintptr_t end_off = ((uintptr_t)in + len) & (PADLOCK_PAGE_BYTES - 1);

	if (!PADLOCK_QUIRK(no_bounce_unaligned) && (!aligned(in) || !aligned(out)))
		return 0;
	if (PADLOCK_QUIRK(no_page_tail_bounce) || (end_off != 0 && end_off + fetch <= PADLOCK_PAGE_BYTES))
		return len;
	return len > fetch ? len - fetch : 0;
}

static void ace_run(enum aes_mode mode, const void *key, const void *cw,
		    const uint8_t *in, uint8_t *out, size_t len)
{
	size_t fetch = mode == AES_MODE_ECB ? PADLOCK_FETCH_ECB_BYTES : PADLOCK_FETCH_BYTES;
	size_t n;

	while (len) {
		n = direct_bytes(in, out, len, fetch);
		if (n) {
			ace_xcrypt(mode, key, cw, in, out, n / AES_BLOCK_BYTES);
		} else {
			n = len < ACE_BOUNCE_BYTES ? len : ACE_BOUNCE_BYTES;
			memcpy(ace_bounce, in, n);
			ace_xcrypt(mode, key, cw, ace_bounce, ace_bounce, n / AES_BLOCK_BYTES);
			memcpy(out, ace_bounce, n);
		}
		in += n;
		out += n;
		len -= n;
	}
}

static int ace_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		     uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	struct ace_session *a = ace_priv(s);
	bool inverse = dir == AES_DIR_DECRYPT && (mode == AES_MODE_ECB || mode == AES_MODE_CBC);
	bool decrypt_bit = dir == AES_DIR_DECRYPT && mode != AES_MODE_OFB && mode != AES_MODE_CTR;
	const void *key = (inverse && a->keygn) ? a->key_dec : a->key_enc;
	const void *cw = decrypt_bit ? (const void *)&a->cw_dec : (const void *)&a->cw_enc;
	uint32_t saved;

	if (len % AES_BLOCK_BYTES)
		return ENGINE_ELEN;
	if (!aes_engine_supports(&ace_engine, s->key_bits, mode, dir) || a->gen == 0)
		return ENGINE_EUNSUPPORTED;
	if (mode != AES_MODE_ECB && !iv)
		return ENGINE_EUNSUPPORTED;
	if (len == 0)
		return ENGINE_OK;
	if (mode != AES_MODE_ECB)
		memcpy(ace_iv, iv, AES_BLOCK_BYTES);
	saved = padlock_enter();
	ace_load(key, cw, a->gen);
	ace_run(mode, key, cw, in, out, len);
	padlock_leave(saved);
	if (mode != AES_MODE_ECB) {
		memcpy(iv, ace_iv, AES_BLOCK_BYTES);
		wipe(ace_iv, sizeof(ace_iv));
	}
	return ENGINE_OK;
}
