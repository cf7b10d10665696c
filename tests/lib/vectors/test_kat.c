/*
 * Unit tests for lib/vectors/kat.c, lib/vectors/kat_vectors.c and lib/vectors/crosscheck.c: the
 * software engines pass every vector, and deliberately broken engines are
 * reported failing with the right vector, block, offset and bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/engine/engine.h"
#include "lib/util/hex.h"
#include "lib/vectors/kat.h"

#define NOTES		8

/* ---- Notes ---- */

static struct {
	unsigned n;
	char line[NOTES][KAT_NOTE_MAX];
} notes;

static void collect(void *ctx, const char *line)
{
	(void)ctx;
	assert_true(strlen(line) < KAT_NOTE_MAX);
	assert_null(strchr(line, '\n'));
	if (notes.n < NOTES)
		snprintf(notes.line[notes.n], KAT_NOTE_MAX, "%s", line);
	notes.n++;
}

/* Whether some note contains text. */
static bool noted(const char *text)
{
	unsigned i;
	for (i = 0; i < notes.n && i < NOTES; i++)
		if (strstr(notes.line[i], text))
			return true;
	return false;
}

/* ---- Buffers ---- */

static struct aes_session s_test, s_ref;
static uint8_t buf_in[XC_MAX_BYTES] __attribute__((aligned(64)));
static uint8_t buf_out[XC_MAX_BYTES] __attribute__((aligned(64)));
static uint8_t buf_ref[XC_MAX_BYTES] __attribute__((aligned(64)));
static uint8_t big[KAT_MILLION_A];
static const struct kat_buffers bufs = { &s_test, &s_ref, buf_in, buf_out, buf_ref, XC_MAX_BYTES };

/* ---- A fake "hardware" engine: the software engine plus one fault ---- */

enum fault {
	FAULT_NONE,
	FAULT_BLOCK2,		/* flips a bit of the second block of a multi-block call */
	FAULT_NO_IV_UPDATE,	/* leaves the IV as it was */
	FAULT_ERROR,		/* every crypt fails with ENGINE_EHW */
	FAULT_OFFSET_1234,	/* flips byte 1234 of calls longer than that */
};
static enum fault fault;

static const struct aes_engine *sw(void)
{
	const struct aes_engine *e = engine_aes_find("software");
	assert_non_null(e);
	return e;
}

static int fake_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	return sw()->set_key(s, key, key_bits);
}

static int fake_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		      uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t saved[AES_BLOCK_BYTES];
	int rc;

	if (fault == FAULT_ERROR)
		return ENGINE_EHW;
	if (iv)
		memcpy(saved, iv, sizeof(saved));
	rc = sw()->crypt(s, mode, dir, iv, in, out, len);
	if (fault == FAULT_BLOCK2 && len >= 2 * AES_BLOCK_BYTES)
		out[AES_BLOCK_BYTES] ^= 0x01;
	if (fault == FAULT_NO_IV_UPDATE && iv)
		memcpy(iv, saved, sizeof(saved));
	if (fault == FAULT_OFFSET_1234 && len > 1234)
		out[1234] ^= 0x80;
	return rc;
}

static void fake_release(struct aes_session *s)
{
	sw()->release(s);
}

/* Claims only AES-128 CBC (both directions) and AES-256 CTR encrypt. */
static struct aes_engine fake = {
	.name = "fake",
	.description = "the software engine with an injected fault",
	.supported = { AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT) |
		       AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_DECRYPT), 0,
		       AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_ENCRYPT) },
	.align = 16,
	.set_key = fake_set_key,
	.crypt = fake_crypt,
	.release = fake_release,
};

static int setup(void **state)
{
	(void)state;
	engine_registry_reset();
	engine_register_software();
	memset(&notes, 0, sizeof(notes));
	fault = FAULT_NONE;
	fake.max_len = 0;
	return 0;
}

/* ---- Vectors ---- */

static void test_vector_names(void **state)
{
	struct kat_aes_vector v[KAT_AES_PER_TRIPLE];
	char buf[64];

	(void)state;
	assert_int_equal(kat_aes_vectors(192, AES_MODE_CFB128, AES_DIR_DECRYPT, v, 2), 2);
	assert_string_equal(v[0].name, "C.2");
	assert_string_equal(v[0].source, "FIPS-197");
	assert_string_equal(v[1].name, "F.3.16");	/* CFB128-AES192.Decrypt */
	assert_int_equal(v[1].len, 64);
	assert_string_equal(kat_aes_sources(128, AES_MODE_CBC, AES_DIR_ENCRYPT, buf, sizeof(buf)),
			    "FIPS-197 C.1, SP 800-38A F.2.1");
	assert_string_equal(kat_aes_sources(256, AES_MODE_CTR, AES_DIR_DECRYPT, buf, sizeof(buf)),
			    "FIPS-197 C.3, SP 800-38A F.5.6");
	assert_string_equal(kat_aes_sources(256, AES_MODE_ECB, AES_DIR_ENCRYPT, buf, sizeof(buf)),
			    "FIPS-197 C.3, SP 800-38A F.1.5");
	assert_int_equal(kat_aes_vectors(160, AES_MODE_ECB, AES_DIR_ENCRYPT, v, 2), 0);
	assert_int_equal(kat_aes_vectors(128, AES_MODE_COUNT, AES_DIR_ENCRYPT, v, 2), 0);
	assert_string_equal(kat_hash_sources(HASH_SHA256, buf, sizeof(buf)), "FIPS 180-2 B.1-B.3");
}

/* The decrypt vectors are the encrypt vectors reversed. */
static void test_vector_symmetry(void **state)
{
	struct kat_aes_vector e[2], d[2];
	unsigned k, m, i;

	(void)state;
	for (k = 0; k < AES_KEYSIZES; k++)
		for (m = 0; m < AES_MODE_COUNT; m++) {
			kat_aes_vectors(aes_keysize_bits(k), m, AES_DIR_ENCRYPT, e, 2);
			kat_aes_vectors(aes_keysize_bits(k), m, AES_DIR_DECRYPT, d, 2);
			for (i = 0; i < 2; i++) {
				assert_int_equal(e[i].len, d[i].len);
				assert_memory_equal(e[i].in, d[i].out, e[i].len);
				assert_memory_equal(e[i].out, d[i].in, e[i].len);
				assert_memory_equal(e[i].iv, d[i].iv, AES_BLOCK_BYTES);
			}
		}
}

static void test_software_passes_all(void **state)
{
	struct kat_result r;
	unsigned k, m, d, i;

	(void)state;
	for (k = 0; k < AES_KEYSIZES; k++)
		for (m = 0; m < AES_MODE_COUNT; m++)
			for (d = 0; d < AES_DIR_COUNT; d++) {
				kat_aes_run(sw(), aes_keysize_bits(k), m, d, &bufs, collect, NULL, &r);
				assert_int_equal(r.run, KAT_AES_PER_TRIPLE);
				assert_int_equal(r.failed, 0);
			}
	for (i = 0; i < engine_hash_count(); i++) {
		kat_hash_run(engine_hash(i), big, sizeof(big), collect, NULL, &r);
		assert_int_equal(r.run, KAT_HASH_PER_ALG);
		assert_int_equal(r.failed, 0);
		assert_int_equal(r.skipped, 0);
	}
	assert_int_equal(notes.n, 0);
}

/* A wrong second block: F.2.1 fails, named with its expected bytes. */
static void test_broken_block_named(void **state)
{
	struct kat_result r;

	(void)state;
	fault = FAULT_BLOCK2;
	kat_aes_run(&fake, 128, AES_MODE_CBC, AES_DIR_ENCRYPT, &bufs, collect, NULL, &r);
	assert_int_equal(r.run, 2);
	assert_int_equal(r.failed, 1);		/* C.1 is one block: unaffected */
	assert_int_equal(notes.n, 1);		/* one block per call: unaffected */
	assert_string_equal(notes.line[0], "vector F.2.1 block 2: expected "
			    "5086cb9b507219ee95db113a917678b2 got 5186cb9b507219ee95db113a917678b2");
}

/* An IV that does not carry over shows in the one-block-per-call pass. */
static void test_iv_not_carried(void **state)
{
	struct kat_result r;

	(void)state;
	fault = FAULT_NO_IV_UPDATE;
	kat_aes_run(&fake, 128, AES_MODE_CBC, AES_DIR_DECRYPT, &bufs, collect, NULL, &r);
	assert_int_equal(r.failed, 1);
	assert_int_equal(notes.n, 1);
	assert_true(noted("vector F.2.2 block 2 (in place, one block per call): expected "
			  "ae2d8a571e03ac9c9eb76fac45af8e51 got "));
}

static void test_engine_error(void **state)
{
	struct kat_result r;

	(void)state;
	fault = FAULT_ERROR;
	kat_aes_run(&fake, 256, AES_MODE_CTR, AES_DIR_ENCRYPT, &bufs, collect, NULL, &r);
	assert_int_equal(r.run, 2);
	assert_int_equal(r.failed, 2);
	assert_true(noted("vector C.3: crypt returned -5 (hardware error)"));
	assert_true(noted("vector F.5.5: crypt returned -5 (hardware error)"));
}

static void test_unclaimed_and_misaligned(void **state)
{
	struct kat_buffers odd = bufs;
	struct kat_result r;

	(void)state;
	kat_aes_run(&fake, 256, AES_MODE_CTR, AES_DIR_DECRYPT, &bufs, collect, NULL, &r);
	assert_int_equal(r.failed, 1);
	assert_true(noted("fake does not claim aes-256-ctr decrypt"));
	odd.in = buf_in + 4;
	kat_aes_run(&fake, 128, AES_MODE_CBC, AES_DIR_ENCRYPT, &odd, collect, NULL, &r);
	assert_int_equal(r.failed, 1);
	assert_true(noted("not aligned to 16 bytes"));
}

static void test_max_len_skips(void **state)
{
	struct kat_result r;

	(void)state;
	fake.max_len = 32;
	kat_aes_run(&fake, 128, AES_MODE_CBC, AES_DIR_ENCRYPT, &bufs, collect, NULL, &r);
	assert_int_equal(r.run, 1);
	assert_int_equal(r.skipped, 1);
	assert_int_equal(r.failed, 0);
	assert_true(noted("vector F.2.1 skipped: 64 bytes, over max_len 32"));
}

/* ---- Hash engines ---- */

static int broken_sha256(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out)
{
	(void)h;
	engine_hash_find("software", HASH_SHA256)->digest(h, msg, len, out);
	if (len > 55)	/* a padding bug: two-block messages go wrong */
		out[31] ^= 0xff;
	return ENGINE_OK;
}

static const struct hash_engine broken_hash = {
	.name = "broken", .alg = HASH_SHA256, .digest = broken_sha256,
};

static void test_hash_failures_named(void **state)
{
	struct kat_result r;

	(void)state;
	kat_hash_run(&broken_hash, big, sizeof(big), collect, NULL, &r);
	assert_int_equal(r.run, 3);
	assert_int_equal(r.failed, 2);
	assert_string_equal(notes.line[0], "vector B.2 (448-bit two-block message): expected "
			    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1 got "
			    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db063e");
	assert_true(noted("vector B.3 (one million 'a'): expected cdc76e5c"));
}

static void test_hash_small_buffer_skips(void **state)
{
	struct kat_result r;

	(void)state;
	kat_hash_run(engine_hash_find("software", HASH_SHA1), big, 4096, collect, NULL, &r);
	assert_int_equal(r.run, 2);
	assert_int_equal(r.skipped, 1);
	assert_int_equal(r.failed, 0);
	assert_true(noted("vector A.3 (one million 'a') skipped: 1000000 bytes, over the buffer of 4096"));
}

/* ---- Cross-check ---- */

static void test_splitmix_reference(void **state)
{
	struct xc_rng g;

	(void)state;
	xc_rng_seed(&g, 0);	/* reference outputs of SplitMix64 from seed 0 */
	assert_true(xc_rng_next(&g) == 0xe220a8397b1dcdafull);
	assert_true(xc_rng_next(&g) == 0x6e789e6aa1b965f4ull);
	assert_true(xc_rng_next(&g) == 0x06c45d188009454full);
}

static void test_crosscheck_agrees(void **state)
{
	struct kat_result r;

	(void)state;
	xc_aes_run(&fake, sw(), 128, AES_MODE_CBC, AES_DIR_ENCRYPT, 0x12345678, &bufs, collect,
		   NULL, &r);
	assert_int_equal(r.run, XC_AES_LENGTHS);
	assert_int_equal(r.failed, 0);
	fake.max_len = 1000;	/* in pieces of 992 bytes, the IV chaining */
	xc_aes_run(&fake, sw(), 256, AES_MODE_CTR, AES_DIR_ENCRYPT, 7, &bufs, collect, NULL, &r);
	assert_int_equal(r.run, XC_AES_LENGTHS);
	assert_int_equal(r.failed, 0);
	assert_int_equal(notes.n, 0);
}

static void test_crosscheck_mismatch_offset(void **state)
{
	struct kat_result r;

	(void)state;
	fault = FAULT_OFFSET_1234;
	xc_aes_run(&fake, sw(), 128, AES_MODE_CBC, AES_DIR_DECRYPT, 1, &bufs, collect, NULL, &r);
	assert_int_equal(r.run, XC_AES_LENGTHS);
	assert_int_equal(r.failed, 2);		/* 4096 and 16384 bytes */
	assert_int_equal(notes.n, 2);
	assert_non_null(strstr(notes.line[0], "length 4096: first mismatch at offset 1234 (block 78): expected "));
	assert_non_null(strstr(notes.line[1], "length 16384: first mismatch at offset 1234 (block 78)"));
}

static void test_crosscheck_iv(void **state)
{
	struct kat_result r;

	(void)state;
	fault = FAULT_NO_IV_UPDATE;
	xc_aes_run(&fake, sw(), 128, AES_MODE_CBC, AES_DIR_ENCRYPT, 1, &bufs, collect, NULL, &r);
	assert_int_equal(r.failed, XC_AES_LENGTHS);
	assert_true(noted("length 16: IV after the call differs at offset 0 (block 1)"));
}

/* The same seed gives the same notes, another seed other data. */
static void test_crosscheck_reproducible(void **state)
{
	char first[KAT_NOTE_MAX];
	struct kat_result r;

	(void)state;
	fault = FAULT_OFFSET_1234;
	xc_aes_run(&fake, sw(), 128, AES_MODE_CBC, AES_DIR_ENCRYPT, 42, &bufs, collect, NULL, &r);
	snprintf(first, sizeof(first), "%s", notes.line[0]);
	notes.n = 0;
	xc_aes_run(&fake, sw(), 128, AES_MODE_CBC, AES_DIR_ENCRYPT, 42, &bufs, collect, NULL, &r);
	assert_string_equal(first, notes.line[0]);
	notes.n = 0;
	xc_aes_run(&fake, sw(), 128, AES_MODE_CBC, AES_DIR_ENCRYPT, 43, &bufs, collect, NULL, &r);
	assert_string_not_equal(first, notes.line[0]);
}

static void test_crosscheck_hash(void **state)
{
	struct kat_result r;

	(void)state;
	xc_hash_run(engine_hash_find("software", HASH_SHA256), engine_hash_find("software", HASH_SHA256),
		    9, big, XC_MAX_BYTES, collect, NULL, &r);
	assert_int_equal(r.run, XC_HASH_LENGTHS);
	assert_int_equal(r.failed, 0);
	xc_hash_run(&broken_hash, engine_hash_find("software", HASH_SHA256), 9, big, 1000, collect,
		    NULL, &r);
	assert_int_equal(r.run, XC_HASH_LENGTHS - 1);
	assert_int_equal(r.skipped, 1);		/* 16384 bytes: over the buffer */
	assert_int_equal(r.failed, 5);		/* 56, 63, 64, 65, 1000 */
	assert_non_null(strstr(notes.line[0], "length 56: expected "));
	assert_true(noted("length 16384 skipped: over the buffer of 1000 bytes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_vector_names, setup),
		cmocka_unit_test_setup(test_vector_symmetry, setup),
		cmocka_unit_test_setup(test_software_passes_all, setup),
		cmocka_unit_test_setup(test_broken_block_named, setup),
		cmocka_unit_test_setup(test_iv_not_carried, setup),
		cmocka_unit_test_setup(test_engine_error, setup),
		cmocka_unit_test_setup(test_unclaimed_and_misaligned, setup),
		cmocka_unit_test_setup(test_max_len_skips, setup),
		cmocka_unit_test_setup(test_hash_failures_named, setup),
		cmocka_unit_test_setup(test_hash_small_buffer_skips, setup),
		cmocka_unit_test_setup(test_splitmix_reference, setup),
		cmocka_unit_test_setup(test_crosscheck_agrees, setup),
		cmocka_unit_test_setup(test_crosscheck_mismatch_offset, setup),
		cmocka_unit_test_setup(test_crosscheck_iv, setup),
		cmocka_unit_test_setup(test_crosscheck_reproducible, setup),
		cmocka_unit_test_setup(test_crosscheck_hash, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
