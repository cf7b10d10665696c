/* Unit tests for lib/engine/engine.c and lib/engine/engine_sw.c: the registry, names, the
 * software engines' claims and contract. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/engine/engine.h"

static int setup(void **state)
{
	(void)state;
	engine_registry_reset();
	return 0;
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(aes_keysize_index(128), 0);
	assert_int_equal(aes_keysize_index(192), 1);
	assert_int_equal(aes_keysize_index(256), 2);
	assert_int_equal(aes_keysize_index(0), AES_KEYSIZES);
	assert_int_equal(aes_keysize_index(160), AES_KEYSIZES);
	assert_int_equal(aes_keysize_bits(2), 256);
	assert_int_equal(aes_keysize_bits(3), 0);
	assert_string_equal(aes_mode_name(AES_MODE_CFB128), "cfb128");
	assert_string_equal(aes_mode_name(AES_MODE_CTR), "ctr");
	assert_string_equal(aes_dir_name(AES_DIR_DECRYPT), "decrypt");
	assert_string_equal(hash_alg_name(HASH_SHA256), "sha256");
	assert_int_equal(hash_digest_bytes(HASH_SHA1), 20);
	assert_int_equal(hash_digest_bytes(HASH_SHA256), 32);
	assert_string_equal(engine_strerror(ENGINE_ETIMEOUT), "hardware timeout");
	assert_string_equal(engine_strerror(-99), "unknown error");
	assert_int_equal(AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_DECRYPT), 1u << 9);
}

static void test_registry(void **state)
{
	static struct aes_engine e[ENGINE_MAX_AES + 1];
	static struct hash_engine h = { .name = "x", .alg = HASH_SHA256 };
	unsigned i;

	(void)state;
	assert_int_equal(engine_aes_count(), 0);
	assert_null(engine_aes_find("software"));
	engine_register_software();
	engine_register_software();	/* a second call adds nothing */
	assert_int_equal(engine_aes_count(), 1);
	assert_int_equal(engine_hash_count(), 2);
	assert_int_equal(engine_montmul_count(), 1);
	assert_string_equal(engine_montmul(0)->name, "software");
	assert_int_equal(engine_montmul_hw_count(), 0);	/* software is not a multiplier to compare */
	assert_non_null(engine_aes_find("software"));
	assert_ptr_equal(engine_aes(0), engine_aes_find("software"));
	assert_null(engine_aes(1));
	assert_non_null(engine_hash_find("software", HASH_SHA1));
	assert_int_equal(engine_hash_find("software", HASH_SHA1)->alg, HASH_SHA1);
	assert_int_equal(engine_hash_find("software", HASH_SHA256)->alg, HASH_SHA256);
	assert_null(engine_hash_find("x", HASH_SHA256));
	assert_int_equal(engine_register_hash(&h), 0);
	assert_ptr_equal(engine_hash_find("x", HASH_SHA256), &h);
	assert_null(engine_hash_find("x", HASH_SHA1));

	for (i = 0; i + 1 < ENGINE_MAX_AES; i++) {
		e[i].name = "hw";
		assert_int_equal(engine_register_aes(&e[i]), 0);
	}
	assert_int_equal(engine_register_aes(&e[ENGINE_MAX_AES]), ENGINE_EFULL);
	assert_int_equal(engine_aes_count(), ENGINE_MAX_AES);
	engine_registry_reset();
	assert_int_equal(engine_aes_count(), 0);
	assert_int_equal(engine_hash_count(), 0);
}

/* The software engine claims everything and keeps the mode contract. */
static void test_software_contract(void **state)
{
	/* FIPS-197 C.1. */
	static const uint8_t key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const uint8_t pt[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
					0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	static const uint8_t ct[16] = { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
					0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a };
	const struct aes_engine *e;
	uint8_t out[32], iv[16];
	unsigned k, m, d;

	(void)state;
	engine_register_software();
	e = engine_aes_find("software");
	for (k = 0; k < AES_KEYSIZES; k++)
		for (m = 0; m < AES_MODE_COUNT; m++)
			for (d = 0; d < AES_DIR_COUNT; d++)
				assert_true(aes_engine_supports(e, aes_keysize_bits(k), m, d));
	assert_false(aes_engine_supports(e, 160, AES_MODE_ECB, AES_DIR_ENCRYPT));
	assert_false(aes_engine_supports(NULL, 128, AES_MODE_ECB, AES_DIR_ENCRYPT));
	assert_false(engine_emulated(e->name));

	assert_int_equal(aes_engine_oneshot(e, 128, key, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, pt,
					    out, 16), 0);
	assert_memory_equal(out, ct, 16);
	assert_int_equal(aes_engine_oneshot(e, 128, key, AES_MODE_ECB, AES_DIR_DECRYPT, NULL, ct,
					    out, 16), 0);
	assert_memory_equal(out, pt, 16);
	/* CBC with a zero IV on one block is the cipher; the IV becomes the
	 * ciphertext, so the call can be continued. */
	memset(iv, 0, sizeof(iv));
	assert_int_equal(aes_engine_oneshot(e, 128, key, AES_MODE_CBC, AES_DIR_ENCRYPT, iv, pt,
					    out, 16), 0);
	assert_memory_equal(out, ct, 16);
	assert_memory_equal(iv, ct, 16);
	assert_int_equal(aes_engine_oneshot(e, 128, key, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, pt,
					    out, 15), ENGINE_ELEN);
	assert_int_equal(aes_engine_oneshot(e, 160, key, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, pt,
					    out, 16), ENGINE_EUNSUPPORTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_names, setup),
		cmocka_unit_test_setup(test_registry, setup),
		cmocka_unit_test_setup(test_software_contract, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
