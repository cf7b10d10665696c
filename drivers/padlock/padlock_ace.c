/*
 * padlock-ace: AES through rep xcrypt (ACE): ECB, CBC, CFB128, OFB, and CTR
 * built from rep xcrypt-ecb.
 *
 * Keys [PG][LAES][OSSL]: AES-128 goes to the unit raw (KEYGN = 0, the unit
 * expands it for both directions); AES-192/256 as software schedules
 * (KEYGN = 1): lib/crypto/aes's FIPS-197 5.2 schedule for encryption, CFB and OFB,
 * and its equivalent inverse cipher schedule (5.3.5, in the order
 * decryption uses it) for ECB/CBC decryption, each word stored in natural
 * byte order (lib/crypto/aes keeps row 0 in bits 0-7: little-endian stores). The
 * control word of CFB decryption has the decrypt bit with the encryption
 * schedule; OFB and CTR always encrypt.
 *
 * CTR [OSSL][NBSD]: the counter blocks are prepared on the CPU (SP 800-38A
 * B.1, the whole 128-bit block incremented as a big-endian integer), one
 * rep xcrypt-ecb per chunk encrypts them, the CPU XORs the keystream into
 * the data. Hardware CTR (rep xcrypt-ctr, ACE2) is used by no public code
 * and has errata on some C7 steppings [OSSL]; its counter format is not
 * documented. The engine never uses it: padlock_t_ctr_probe runs it once
 * as a probe and reports what it did as information about the CPU.
 *
 * Quirks handled (each has a padlock_quirks switch for the host tests):
 *   - the unit caches key and control word until EFLAGS is written: the
 *     driver remembers what the unit last loaded (key buffer, control word,
 *     the session's key generation, the xcrypt mode) and reloads on any
 *     change, so also before an ECB run after CFB/OFB with the same key,
 *     which OpenSSL found needs one ("empirically found", [OSSL]);
 *   - every operand must be 16-byte aligned: unaligned caller buffers go
 *     through an aligned bounce buffer;
 *   - the unit reads past the end of the input (PADLOCK_FETCH_*): an input
 *     whose end lies within that distance of a page end has its tail
 *     processed in the bounce buffer, which has the slack after it;
 *   - CR0.TS/EM cleared around the instructions (padlock_enter).
 * The IV lives in an aligned driver buffer during an operation; the next IV
 * is taken from the returned EAX (CBC encryption leaves EAX at the last
 * output block). Both work buffers (the IV or counter, and the bounce
 * buffer that also holds CTR's counter blocks and keystream) are wiped at
 * the end of every operation: they hold plaintext and keystream.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/crypto/aes.h"
#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "lib/vectors/kat.h"
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
	enum aes_mode mode;		/* of the xcrypt instruction (CTR runs as ECB) */
} loaded;
static uint32_t next_gen = 1;

/* Work buffers: the IV during an operation, and the bounce buffer with
 * the prefetch slack after it. */
static uint8_t ace_iv[AES_BLOCK_BYTES] __attribute__((aligned(PADLOCK_ALIGN)));
static uint8_t ace_bounce[ACE_BOUNCE_BYTES + PADLOCK_FETCH_ECB_BYTES]
	__attribute__((aligned(PADLOCK_ALIGN)));
static size_t ace_bounce_used;		/* bytes of ace_bounce written since the last wipe */

static int ace_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits);
static int ace_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		     uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);
static void ace_release(struct aes_session *s);

static struct aes_engine ace_engine = {
	.name = "padlock-ace",
	.description = "VIA PadLock ACE (rep xcrypt; CTR from rep xcrypt-ecb; hardware key expansion for AES-128)",
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

int padlock_ace_register(void)
{
	uint32_t pairs = 0;
	unsigned k;
	enum aes_mode m;

	for (m = AES_MODE_ECB; m <= AES_MODE_OFB; m++)
		pairs |= AES_TRIPLE_BIT(m, AES_DIR_ENCRYPT) | AES_TRIPLE_BIT(m, AES_DIR_DECRYPT);
	pairs |= AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_ENCRYPT) |
		 AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_DECRYPT);
	for (k = 0; k < AES_KEYSIZES; k++)
		ace_engine.supported[k] = pairs;
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

/*
 * The pushf/popf reload, when what the unit holds is not (key, cw, gen,
 * mode): a change of any of them, including ECB after CFB/OFB with the
 * same key and control word [OSSL].
 */
static void ace_load(const void *key, const void *cw, uint32_t gen, enum aes_mode mode)
{
	if (!PADLOCK_QUIRK(no_reload) &&
	    (!loaded.valid || loaded.key != key || loaded.cw != cw || loaded.gen != gen ||
	     loaded.mode != mode))
		padlock_reload_key();
	loaded.valid = true;
	loaded.key = key;
	loaded.cw = cw;
	loaded.gen = gen;
	loaded.mode = mode;
}

/* c += 1 as a 128-bit big-endian integer (SP 800-38A B.1). */
static void ctr_inc(uint8_t c[16])
{
	int i;
	for (i = 15; i >= 0; i--)
		if (++c[i] != 0)
			break;
}

static void bounce_note(size_t bytes)
{
	if (bytes > ace_bounce_used)
		ace_bounce_used = bytes;
}

/* One run of the instruction on aligned buffers; keeps ace_iv current. */
static void ace_xcrypt(enum aes_mode mode, const void *key, const void *cw,
		       const uint8_t *in, uint8_t *out, size_t blocks)
{
	uint8_t *next;

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
			bounce_note(n);
			memcpy(ace_bounce, in, n);
			ace_xcrypt(mode, key, cw, ace_bounce, ace_bounce, n / AES_BLOCK_BYTES);
			memcpy(out, ace_bounce, n);
		}
		in += n;
		out += n;
		len -= n;
	}
}

/*
 * CTR from ECB [OSSL][NBSD]: up to ACE_BOUNCE_BYTES of counter blocks
 * (from ace_iv, which ends as the next counter) into the aligned bounce
 * buffer, one rep xcrypt-ecb over them in place, the keystream XORed from
 * in to out (any alignment: only the CPU touches the caller's buffers).
 */
static void ace_ctr(const void *key, const void *cw, const uint8_t *in, uint8_t *out, size_t len)
{
	size_t n, i;

	while (len) {
		n = len < ACE_BOUNCE_BYTES ? len : ACE_BOUNCE_BYTES;
		bounce_note(n);
		for (i = 0; i < n; i += AES_BLOCK_BYTES) {
			memcpy(ace_bounce + i, ace_iv, AES_BLOCK_BYTES);
			ctr_inc(ace_iv);
		}
		ace_xcrypt(AES_MODE_ECB, key, cw, ace_bounce, ace_bounce, n / AES_BLOCK_BYTES);
		for (i = 0; i < n; i++)
			out[i] = in[i] ^ ace_bounce[i];
		in += n;
		out += n;
		len -= n;
	}
}

/* Wipes the work buffers: the IV/counter and what the bounce buffer held. */
static void ace_wipe_work(void)
{
	if (!PADLOCK_QUIRK(no_wipe_iv))
		wipe(ace_iv, sizeof(ace_iv));
	if (!PADLOCK_QUIRK(no_wipe_bounce) && ace_bounce_used) {
		wipe(ace_bounce, ace_bounce_used);
		ace_bounce_used = 0;
	}
}

static int ace_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		     uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	struct ace_session *a = ace_priv(s);
	bool inverse = dir == AES_DIR_DECRYPT && (mode == AES_MODE_ECB || mode == AES_MODE_CBC);
	bool decrypt_bit = dir == AES_DIR_DECRYPT && mode != AES_MODE_OFB && mode != AES_MODE_CTR;
	enum aes_mode insn = mode == AES_MODE_CTR ? AES_MODE_ECB : mode;
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
	ace_load(key, cw, a->gen, insn);
	if (mode == AES_MODE_CTR)
		ace_ctr(key, cw, in, out, len);
	else
		ace_run(mode, key, cw, in, out, len);
	padlock_leave(saved);
	if (mode != AES_MODE_ECB)
		memcpy(iv, ace_iv, AES_BLOCK_BYTES);
	ace_wipe_work();
	return ENGINE_OK;
}

/* ---- self-tests ---- */

static size_t nonzero_bytes(const uint8_t *p, size_t n)
{
	size_t i, k = 0;
	for (i = 0; i < n; i++)
		k += p[i] != 0;
	return k;
}

/*
 * The work buffers are wiped after use: an unaligned CBC encryption (it
 * goes through the bounce buffer) and a CTR run (counter blocks and
 * keystream in the bounce buffer, the counter in the IV buffer); after each
 * the IV buffer and the whole bounce buffer must read zero.
 */
enum drv_status padlock_t_ace_wipe(const void *ctx, char *d, size_t cap)
{
	static struct aes_session s;
	static uint8_t data[3 * AES_BLOCK_BYTES + 1];
	static const uint8_t key[16] = "wipe-test key 16";
	uint8_t iv[AES_BLOCK_BYTES];
	size_t iv_left[2], bounce_left[2];
	unsigned i;
	int rc = ENGINE_OK;
	(void)ctx;

	if (padlock_unit_skip(padlock_dev.ace, "ACE", d, cap))
		return DRV_SKIP;
	memset(&s, 0, sizeof(s));
	s.engine = &ace_engine;
	rc = ace_set_key(&s, key, 128);
	for (i = 0; i < 2 && rc == ENGINE_OK; i++) {
		memset(data, 0x3C, sizeof(data));
		memset(iv, 0x11, sizeof(iv));
		rc = ace_crypt(&s, i == 0 ? AES_MODE_CBC : AES_MODE_CTR, AES_DIR_ENCRYPT, iv,
			       data + 1, data + 1, 3 * AES_BLOCK_BYTES);
		iv_left[i] = nonzero_bytes(ace_iv, sizeof(ace_iv));
		bounce_left[i] = nonzero_bytes(ace_bounce, sizeof(ace_bounce));
	}
	ace_release(&s);
	memset(data, 0, sizeof(data));
	if (rc != ENGINE_OK) {
		fmt_snprintf(d, cap, "the operation failed: %s", engine_strerror(rc));
		return DRV_FAIL;
	}
	if (iv_left[0] || iv_left[1] || bounce_left[0] || bounce_left[1]) {
		fmt_snprintf(d, cap, "non-zero bytes left: IV buffer %u after CBC, %u after CTR; bounce buffer %u after CBC, %u after CTR",
			     (unsigned)iv_left[0], (unsigned)iv_left[1], (unsigned)bounce_left[0],
			     (unsigned)bounce_left[1]);
		return DRV_FAIL;
	}
	fmt_snprintf(d, cap, "IV and bounce buffers zero after unaligned CBC and CTR");
	return DRV_PASS;
}

/*
 * SP 800-38A F.5.1 (CTR-AES128.Encrypt) from lib/vectors: key, initial
 * counter block, plaintext and ciphertext; the probe uses the first two
 * blocks. kat_aes_vectors() gives FIPS-197 first, then SP 800-38A.
 */
static struct kat_aes_vector f51_v[KAT_AES_PER_TRIPLE];
#define F51 (&f51_v[1])

static struct {
	uint32_t cw[4];
	uint8_t key[PADLOCK_KEYBUF_BYTES];
	uint8_t ctr[AES_BLOCK_BYTES];
	uint8_t data[4 * AES_BLOCK_BYTES];
} probe __attribute__((aligned(PADLOCK_ALIGN)));

/*
 * rep xcrypt-ctr over blocks of probe.data, the plaintext pt (NULL: zeros),
 * from counter c; the key loaded afresh.
 */
static void probe_run(const uint8_t c[16], const uint8_t *pt, size_t blocks)
{
	uint32_t saved;

	memset(&probe, 0, sizeof(probe));
	probe.cw[0] = 10;		/* AES-128, encrypt, hardware key expansion */
	memcpy(probe.key, F51->key, 16);
	memcpy(probe.ctr, c, 16);
	if (pt)
		memcpy(probe.data, pt, blocks * AES_BLOCK_BYTES);
	saved = padlock_enter();
	padlock_reload_key();
	padlock_xcrypt_ctr(probe.data, probe.data, probe.key, probe.cw, probe.ctr, (uint32_t)blocks);
	padlock_leave(saved);
	padlock_ace_forget();		/* the unit now holds the probe's key */
}

/* Whether out is CTR keystream of counters from c, stepping the low `bits` bits. */
static bool probe_matches(const struct aes_ctx *k, const uint8_t c0[16], unsigned bits,
			  const uint8_t *out, size_t blocks)
{
	uint8_t c[16], ks[16];
	size_t b, i;
	int j;

	memcpy(c, c0, 16);
	for (b = 0; b < blocks; b++) {
		aes_encrypt_block(k, c, ks);
		for (i = 0; i < 16; i++)
			if (out[16 * b + i] != ks[i])	/* plaintext zero: out is keystream */
				return false;
		for (j = 15; j >= 16 - (int)(bits / 8); j--)
			if (++c[j] != 0)
				break;
	}
	return true;
}

/* What the counter did across the 32-bit wrap: the log line's clause and the test note's. */
static const struct ctr_form {
	const char *log, *detail;
} ctr_form[3] = {
	{ "across the 32-bit wrap the counter carries into bit 32 (128-bit increment)",
	  "counter carries past 32 bits" },
	{ "across the 32-bit wrap the counter wraps within the low 32 bits", "counter wraps at 32 bits" },
	{ "across the 32-bit wrap the counter follows neither a 128-bit nor a 32-bit increment",
	  "counter of unknown form" },
};

/*
 * The hardware CTR probe (ACE2 only): rep xcrypt-ctr on SP 800-38A F.5.1,
 * then on four zero blocks from a counter whose low 32 bits are 0xFFFFFFFE
 * (does the increment carry into bit 32?). No public code uses this
 * instruction, its counter format is undocumented and OpenSSL cites errata
 * on some C7 steppings, so it is a finding (lib/engine/driver.h): what
 * the CPU did, a fault or a hang included, is reported about the CPU,
 * never a verdict. padlock-ace builds CTR from ECB and never uses it.
 */
enum drv_status padlock_t_ctr_probe(const void *ctx, char *d, size_t cap)
{
	uint8_t wrap[16];
	struct aes_ctx k;
	bool f51, carry128, wrap32;
	const struct ctr_form *form;
	(void)ctx;

	if (padlock_unit_skip(padlock_dev.ace, "ACE", d, cap))
		return DRV_SKIP;
	if (padlock_dev.ace2 != PADLOCK_ENABLED) {
		fmt_snprintf(d, cap, "%s", padlock_dev.ace2 == PADLOCK_ABSENT ?
			     "ACE2 absent: no rep xcrypt-ctr on this CPU" :
			     "ACE2 present but disabled: rep xcrypt-ctr not run");
		return DRV_SKIP;
	}
	kat_aes_vectors(128, AES_MODE_CTR, AES_DIR_ENCRYPT, f51_v, KAT_AES_PER_TRIPLE);
	probe_run(F51->iv, F51->in, 2);
	f51 = memcmp(probe.data, F51->out, 2 * AES_BLOCK_BYTES) == 0;
	memset(wrap, 0xA5, 12);
	memset(wrap + 12, 0xFF, 3);
	wrap[15] = 0xFE;
	probe_run(wrap, NULL, 4);
	aes_set_key(&k, F51->key, 16);
	carry128 = probe_matches(&k, wrap, 128, probe.data, 4);
	wrap32 = probe_matches(&k, wrap, 32, probe.data, 4);
	aes_wipe(&k);
	memset(&probe, 0, sizeof(probe));
	form = carry128 ? &ctr_form[0] : wrap32 ? &ctr_form[1] : &ctr_form[2];
	drv_log(&padlock_log, "ace2: rep xcrypt-ctr (unverified counter format, not used by padlock-ace): SP 800-38A F.5.1 %s; %s",
		f51 ? "matches" : "differs", form->log);
	fmt_snprintf(d, cap, "F.5.1 %s, %s", f51 ? "matches" : "differs", form->detail);
	return DRV_PASS;
}
