/*
 * The Geode LX security block's own TAP tests (geode_sb_tests(), see
 * geode_sb.h): what the KAT runner cannot see from outside the driver.
 * References come from lib/aes; data from a fixed xorshift32 stream, so
 * every run checks the same bytes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/run/report.h"
#include "lib/crypto/aes.h"
#include "lib/util/fmt.h"
#include "lib/util/hex.h"
#include "drivers/geode_sb/geode_sb_int.h"
#include "drivers/geode_sb/glx_sb_reg.h"

/* Longest case: four chunks (three whole ones and a block), plus room for an odd offset. */
#define XB_CAP	(3 * GEODE_SB_CHUNK + GLX_SB_AES_BLOCK + 64)
#define SPLITS	3

static uint8_t xb_in[XB_CAP], xb_out[XB_CAP], xb_ref[XB_CAP];
static struct aes_session xs_session;
static struct aes_ctx xs_ref;

static const char *const aes_test_names[] = {
	"geode-sb: probe",
	"geode-sb: GLD_MSR_CAP 0x58002000 identifies the security block",
	"geode-sb: AES uses the writable key (WK)",
	"geode-sb: AES-128 ECB/CBC through DMA matches lib/aes",
	"geode-sb: DMA guard bytes intact around every destination",
	"geode-sb: DMA buffers and session keys wiped after use",
};
#define N_AES_TESTS (sizeof(aes_test_names) / sizeof(aes_test_names[0]))

/* A case of the cross-check: pieces[] non-zero splits the message over calls. */
struct xcase {
	enum aes_mode mode;
	enum aes_dir dir;
	size_t len;
	unsigned offset;	/* of the caller's buffers from their 16-byte alignment */
	bool in_place;		/* in == out */
	size_t pieces[SPLITS];
};

#define CH GEODE_SB_CHUNK
static const struct xcase xcases[] = {
	{ AES_MODE_ECB, AES_DIR_ENCRYPT, 16, 0, false, { 0 } },
	{ AES_MODE_ECB, AES_DIR_DECRYPT, 4096, 1, false, { 0 } },
	{ AES_MODE_ECB, AES_DIR_ENCRYPT, 3 * CH, 5, true, { 0 } },
	{ AES_MODE_CBC, AES_DIR_ENCRYPT, 16, 0, false, { 0 } },
	{ AES_MODE_CBC, AES_DIR_ENCRYPT, 3 * CH + 16, 3, true, { 0 } },
	{ AES_MODE_CBC, AES_DIR_DECRYPT, 3 * CH + 16, 0, false, { 0 } },
	{ AES_MODE_CBC, AES_DIR_DECRYPT, 2 * CH, 7, true, { 0 } },
	{ AES_MODE_CBC, AES_DIR_ENCRYPT, 16 + 4096 + CH + 32, 0, false, { 16, 4096, CH + 32 } },
	{ AES_MODE_CBC, AES_DIR_DECRYPT, 16 + 4096 + CH + 32, 9, true, { 16, 4096, CH + 32 } },
};
#undef CH
#define N_XCASES (sizeof(xcases) / sizeof(xcases[0]))

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	uint32_t x = seed ? seed : 1;
	size_t i;
	for (i = 0; i < n; i++) {
		x ^= x << 13;	/* xorshift32 (G. Marsaglia, 2003) */
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return n;
}

/* lib/aes over the whole message in xb_ref (in place). */
static void reference(const struct xcase *c, const uint8_t *key, uint8_t *iv)
{
	bool enc = c->dir == AES_DIR_ENCRYPT;
	aes_set_key(&xs_ref, key, GLX_SB_KEY_BYTES);
	if (c->mode == AES_MODE_ECB && enc)
		aes_ecb_encrypt(&xs_ref, xb_ref, xb_ref, c->len);
	else if (c->mode == AES_MODE_ECB)
		aes_ecb_decrypt(&xs_ref, xb_ref, xb_ref, c->len);
	else if (enc)
		aes_cbc_encrypt(&xs_ref, iv, xb_ref, xb_ref, c->len);
	else
		aes_cbc_decrypt(&xs_ref, iv, xb_ref, xb_ref, c->len);
	aes_wipe(&xs_ref);
}

/* Runs one case through the engine; on failure writes why and returns false. */
static bool run_case(const struct aes_engine *e, const struct xcase *c, unsigned idx,
		     char *why, size_t wn)
{
	uint8_t key[GLX_SB_KEY_BYTES], iv[GLX_SB_AES_BLOCK], ref_iv[GLX_SB_AES_BLOCK];
	uint8_t *in = xb_in + c->offset, *out = c->in_place ? in : xb_out + c->offset;
	size_t off = 0, n, d;
	unsigned p;
	int rc = ENGINE_OK;
	char what[96];

	fmt_snprintf(what, sizeof(what), "%s %s %u bytes (offset %u, %s%s)",
		     aes_mode_name(c->mode), aes_dir_name(c->dir), (unsigned)c->len, c->offset,
		     c->in_place ? "in place" : "separate buffers",
		     c->pieces[0] ? ", over 3 calls" : "");
	fill(key, sizeof(key), 0x1000 + idx);
	fill(iv, sizeof(iv), 0x2000 + idx);
	fill(in, c->len, 0x3000 + idx);
	memcpy(ref_iv, iv, sizeof(iv));
	memcpy(xb_ref, in, c->len);
	reference(c, key, ref_iv);

	rc = e->set_key(&xs_session, key, 128);
	for (p = 0; rc == ENGINE_OK && off < c->len; p++) {
		n = c->pieces[0] ? c->pieces[p] : c->len;
		rc = e->crypt(&xs_session, c->mode, c->dir,
			      c->mode == AES_MODE_CBC ? iv : NULL, in + off, out + off, n);
		off += n;
	}
	e->release(&xs_session);
	if (rc != ENGINE_OK) {
		fmt_snprintf(why, wn, "%s: crypt returned %d: %s", what, rc, geode_sb_last_error());
		return false;
	}
	d = first_diff(out, xb_ref, c->len);
	if (d < c->len) {
		fmt_snprintf(why, wn, "%s: first mismatch at byte %u (DMA chunk %u): expected 0x%02x got 0x%02x",
			     what, (unsigned)d, (unsigned)(d / GEODE_SB_CHUNK), xb_ref[d], out[d]);
		return false;
	}
	if (c->mode == AES_MODE_CBC && memcmp(iv, ref_iv, sizeof(iv)) != 0) {
		char h1[40], h2[40];
		fmt_snprintf(why, wn, "%s: IV after the call: expected %s got %s", what,
			     hex_encode(ref_iv, 16, h1, sizeof(h1)), hex_encode(iv, 16, h2, sizeof(h2)));
		return false;
	}
	return true;
}

static void test_crosscheck(const struct aes_engine *e)
{
	char why[300];
	unsigned i, failed = 0;

	why[0] = '\0';
	for (i = 0; i < N_XCASES; i++) {
		char one[300];
		if (run_case(e, &xcases[i], i, one, sizeof(one)))
			continue;
		if (failed++ == 0)
			memcpy(why, one, sizeof(why));
		tap_diag("geode-sb: cross-check: %s", one);
	}
	if (failed)
		tap_result(false, "%s: %u of %u cases failed, first: %s", aes_test_names[3], failed,
			   (unsigned)N_XCASES, why);
	else
		tap_result(true, "%s (%u cases: 16 bytes to 48 KiB + 16, up to 4 DMA chunks, unaligned, in place, CBC chained across calls)",
			   aes_test_names[3], (unsigned)N_XCASES);
}

/* Two keys must give two different blocks, each lib/aes's. */
static void test_writable_key(const struct aes_engine *e)
{
	static const uint8_t zero[GLX_SB_AES_BLOCK];
	uint8_t k1[GLX_SB_KEY_BYTES], k2[GLX_SB_KEY_BYTES], o1[16], o2[16], r1[16], r2[16], h[16];
	char a[40], b[40], c[40];
	unsigned i;
	int rc;

	for (i = 0; i < sizeof(k1); i++) {
		k1[i] = (uint8_t)i;
		k2[i] = (uint8_t)(0xF0 ^ (15 - i));
	}
	rc = aes_engine_oneshot(e, 128, k1, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, zero, o1, 16);
	if (rc == ENGINE_OK)
		rc = aes_engine_oneshot(e, 128, k2, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, zero, o2, 16);
	if (rc != ENGINE_OK) {
		tap_result(false, "%s: crypt returned %d: %s", aes_test_names[2], rc,
			   geode_sb_last_error());
		return;
	}
	aes_set_key(&xs_ref, k1, sizeof(k1));
	aes_encrypt_block(&xs_ref, zero, r1);
	aes_set_key(&xs_ref, k2, sizeof(k2));
	aes_encrypt_block(&xs_ref, zero, r2);
	aes_wipe(&xs_ref);
	if (memcmp(o1, r1, 16) == 0 && memcmp(o2, r2, 16) == 0) {
		tap_result(true, "%s (two keys, two lib/aes-exact blocks)", aes_test_names[2]);
		return;
	}
	if (memcmp(o1, o2, 16) == 0) {
		bool hidden = glx_sb_hidden_output(h) && memcmp(h, o1, 16) == 0;
		tap_result(false, "%s: the engine ignores the writable key: keys %s and %s both give %s%s",
			   aes_test_names[2], hex_encode(k1, 16, a, sizeof(a)),
			   hex_encode(k2, 16, b, sizeof(b)), hex_encode(o1, 16, c, sizeof(c)),
			   hidden ? " (the hidden key's output)" : "");
		return;
	}
	i = memcmp(o1, r1, 16) != 0 ? 1 : 2;
	tap_result(false, "%s: wrong block for key %s: expected %s got %s", aes_test_names[2],
		   hex_encode(i == 1 ? k1 : k2, 16, a, sizeof(a)),
		   hex_encode(i == 1 ? r1 : r2, 16, b, sizeof(b)),
		   hex_encode(i == 1 ? o1 : o2, 16, c, sizeof(c)));
}

/* The open question of the BSD drivers: may SOURCE_A equal DEST_A? Reported, not judged. */
static void try_inplace_dma(const struct aes_engine *e)
{
	static const struct xcase c = { AES_MODE_CBC, AES_DIR_ENCRYPT, 4096, 0, false, { 0 } };
	char why[300];
	bool same;

	geode_sb_set_inplace_dma(true);
	same = run_case(e, &c, 99, why, sizeof(why));
	geode_sb_set_inplace_dma(false);
	if (same)
		tap_diag("geode-sb: in-place DMA (SOURCE_A = DEST_A): same output as separate buffers (the driver uses separate ones)");
	else
		tap_diag("geode-sb: in-place DMA (SOURCE_A = DEST_A): %s (the driver uses separate buffers)",
			 why);
}

static void test_guards(void)
{
	const struct geode_sb_stats *st = geode_sb_stats();
	if (st->overruns)
		tap_result(false, "%s: %lu of %lu operations overran, first: %s", aes_test_names[4],
			   st->overruns, st->ops + st->timeouts, st->first_overrun);
	else
		tap_result(st->ops > 0, "%s (%lu DMA operations, %u guard bytes each side, no change)",
			   aes_test_names[4], st->ops, GEODE_SB_GUARD);
}

static void test_wiped(void)
{
	size_t off = 0, i;
	bool clean = geode_sb_dma_clean(&off);

	for (i = 0; i < sizeof(xs_session.priv) && !xs_session.priv[i]; i++)
		;
	if (geode_sb_keys_unwiped())
		tap_result(false, "%s: key registers not wiped: a timed-out operation kept the engine busy (CTL_A=0x%08x), so WKEY0..3 and CBC_IV0..3 were left alone %lu times",
			   aes_test_names[5], glx_sb.busy_ctl, geode_sb_stats()->key_wipes_skipped);
	else if (!clean)
		tap_result(false, "%s: DMA area byte %u is not zero", aes_test_names[5], (unsigned)off);
	else if (i < sizeof(xs_session.priv))
		tap_result(false, "%s: released session keeps key byte %u", aes_test_names[5],
			   (unsigned)i);
	else
		tap_result(geode_sb_stats()->key_wipes > 0,
			   "%s (DMA area all zero; WKEY0..3 and CBC_IV0..3 zeroed %lu times)",
			   aes_test_names[5], geode_sb_stats()->key_wipes);
}

void geode_sb_tests(void)
{
	const struct geode_sb_info *in = geode_sb_info();
	const struct geode_sb_stats *st;
	const struct aes_engine *e = geode_sb_engine();
	const char *skip = NULL;
	unsigned i;

	if (!in->found)
		skip = geode_sb_absent_reason();
	else if (!in->ok)
		skip = "geode-sb probe failed";
	if (!in->found) {
		for (i = 0; i < N_AES_TESTS; i++)
			tap_skip(skip, "%s", aes_test_names[i]);
		geode_trng_tests(skip);
		return;
	}
	if (in->ok)
		tap_result(true, "%s: 1022:2082 at %02x:%02x.%x, BAR0 0x%08x/16K, memory decoding and bus mastering on",
			   aes_test_names[0], in->bus, in->dev, in->fn, in->bar0);
	else
		tap_result(false, "%s: %s", aes_test_names[0], geode_sb_absent_reason());
	tap_result(in->msr_ok, "%s: %s", aes_test_names[1], glx_sb_msr_text());
	if (!in->ok) {
		for (i = 2; i < N_AES_TESTS; i++)
			tap_skip(skip, "%s", aes_test_names[i]);
		geode_trng_tests(skip);
		return;
	}
	test_writable_key(e);
	test_crosscheck(e);
	try_inplace_dma(e);
	st = geode_sb_stats();
	tap_diag("geode-sb: %lu DMA operations: done seen through CTL_A.ST %lu times, through the AES_INT flag %lu times; longest wait %llu cycles",
		 st->ops, st->done_by_st, st->done_by_flag, (unsigned long long)st->max_wait_cycles);
	tap_diag("geode-sb: CBC_IV read back after an operation equals the chained IV %lu of %lu times",
		 st->iv_readback_same, st->iv_readback_same + st->iv_readback_other);
	test_guards();
	test_wiped();
	geode_trng_tests(NULL);
}
