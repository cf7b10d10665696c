/*
 * Unit tests for the CAVP parser and runner (lib/cavp*.c): file kinds from
 * names, streaming in any chunk size, every kind of malformed input named
 * by line, records run through the software engine (KAT, MMT, MCT with
 * its key chain, SHA messages, Monte), failures named by record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/host/cavp_rsp.h"
#include "lib/engine/engine.h"

#define LINE_CAP	4096
#define DATA_CAP	1024

static char line[LINE_CAP];
static uint8_t data_a[DATA_CAP], data_b[DATA_CAP], work[DATA_CAP];
static struct aes_session session;

static struct {
	struct cavp_parser p;
	struct cavp_run run;
	unsigned nnotes;
	char note[KAT_NOTE_MAX];
} t;

static void collect(void *ctx, const char *text)
{
	(void)ctx;
	if (t.nnotes++ == 0)
		snprintf(t.note, sizeof(t.note), "%s", text);
}

/*
 * Parses text as the file `name` with the engine `engine`, chunk bytes at a
 * time (0: all at once). Returns the parser's result.
 */
static int run_as(const char *name, const char *text, size_t chunk, const char *engine)
{
	struct cavp_kind k;
	size_t len = strlen(text), off;
	int rc = 0;

	memset(&t, 0, sizeof(t));
	assert_int_equal(cavp_kind_from_name(name, &k), 0);
	assert_int_equal(cavp_run_init(&t.run, &k, engine_aes_find(engine),
				       engine_hash_find(engine, k.alg), &session, work,
				       sizeof(work), collect, NULL), 0);
	cavp_init(&t.p, &k, line, sizeof(line), data_a, data_b, DATA_CAP, cavp_run_record, &t.run);
	if (chunk == 0)
		chunk = len ? len : 1;
	for (off = 0; off < len && rc == 0; off += chunk)
		rc = cavp_feed(&t.p, text + off, len - off < chunk ? len - off : chunk);
	if (rc == 0)
		rc = cavp_finish(&t.p);
	return rc;
}

static int run(const char *name, const char *text)
{
	return run_as(name, text, 0, "software");
}

static int setup(void **state)
{
	(void)state;
	engine_registry_reset();
	engine_register_software();
	return 0;
}

/* ---- File kinds ---- */

static void test_kinds(void **state)
{
	struct cavp_kind k;

	(void)state;
	assert_int_equal(cavp_kind_from_name("/data/cavp/aes/CBCMMT128.rsp", &k), 0);
	assert_true(k.aes);
	assert_int_equal(k.test, CAVP_AES_MMT);
	assert_int_equal(k.mode, AES_MODE_CBC);
	assert_int_equal(k.key_bits, 128);
	assert_string_equal(k.label, "aes-128-cbc MMT");
	assert_int_equal(cavp_kind_from_name("CFB128GFSbox256.rsp", &k), 0);
	assert_int_equal(k.mode, AES_MODE_CFB128);
	assert_int_equal(k.test, CAVP_AES_KAT);
	assert_int_equal(k.key_bits, 256);
	assert_int_equal(cavp_kind_from_name("ECBMCT192.rsp", &k), 0);
	assert_int_equal(k.test, CAVP_AES_MCT);
	assert_int_equal(cavp_kind_from_name("OFBVarTxt128.rsp", &k), 0);
	assert_int_equal(k.mode, AES_MODE_OFB);
	assert_int_equal(cavp_kind_from_name("SHA256ShortMsg.rsp", &k), 0);
	assert_false(k.aes);
	assert_int_equal(k.alg, HASH_SHA256);
	assert_int_equal(k.test, CAVP_SHA_MSG);
	assert_int_equal(cavp_kind_from_name("SHA1Monte.rsp", &k), 0);
	assert_int_equal(k.alg, HASH_SHA1);
	assert_int_equal(k.test, CAVP_SHA_MONTE);

	assert_int_equal(cavp_kind_from_name("CFB8MMT128.rsp", &k), CAVP_EKIND);
	assert_int_equal(cavp_kind_from_name("CFB1VarKey128.rsp", &k), CAVP_EKIND);
	assert_int_equal(cavp_kind_from_name("CBCMMT129.rsp", &k), CAVP_EKIND);
	assert_int_equal(cavp_kind_from_name("CBCMMT128.txt", &k), CAVP_EKIND);
	assert_int_equal(cavp_kind_from_name("SHA512ShortMsg.rsp", &k), CAVP_EKIND);
	assert_int_equal(cavp_kind_from_name("CTRMMT128.rsp", &k), CAVP_EKIND);
	assert_int_equal(cavp_kind_from_name("vectors.rsp", &k), CAVP_EKIND);
}

/* ---- Good input ---- */

/* SP 800-38A F.2.1/F.2.2 as an MMT file: CRLF, comments, both sections. */
static const char cbc_mmt[] =
	"# CAVS 11.1\r\n"
	"# Config info for aes_values\r\n"
	"\r\n"
	"[ENCRYPT]\r\n"
	"\r\n"
	"COUNT = 0\r\n"
	"KEY = 2b7e151628aed2a6abf7158809cf4f3c\r\n"
	"IV = 000102030405060708090a0b0c0d0e0f\r\n"
	"PLAINTEXT = 6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\r\n"
	"CIPHERTEXT = 7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\r\n"
	"\r\n"
	"[DECRYPT]\r\n"
	"\r\n"
	"COUNT = 0\r\n"
	"KEY = 2b7e151628aed2a6abf7158809cf4f3c\r\n"
	"IV = 000102030405060708090A0B0C0D0E0F\r\n"
	"CIPHERTEXT = 7649abac8119b246cee98e9b12e9197d\r\n"
	"PLAINTEXT = 6bc1bee22e409f96e93d7e117393172a\r\n";	/* no blank line at the end */

static void test_streaming_any_chunk(void **state)
{
	size_t chunk;

	(void)state;
	for (chunk = 0; chunk < 40; chunk++) {
		assert_int_equal(run_as("CBCMMT128.rsp", cbc_mmt, chunk, "software"), 0);
		assert_int_equal(t.run.passed, 2);
		assert_int_equal(t.run.failed, 0);
		assert_int_equal(t.nnotes, 0);
	}
}

static void test_failure_named(void **state)
{
	char bad[sizeof(cbc_mmt)];

	(void)state;
	memcpy(bad, cbc_mmt, sizeof(bad));
	*strstr(bad, "5086cb9b") = '6';	/* second block of the first CIPHERTEXT */
	assert_int_equal(run("CBCMMT128.rsp", bad), 0);
	assert_int_equal(t.run.passed, 1);
	assert_int_equal(t.run.failed, 1);
	assert_string_equal(t.note, "line 6 [ENCRYPT] COUNT = 0 CIPHERTEXT block 2: expected "
			    "6086cb9b507219ee95db113a917678b2 got 5086cb9b507219ee95db113a917678b2");
}

/* FIPS 180-2 B.1 and the empty message ("Msg = 00", Len = 0), LF only. */
static const char sha256_msgs[] =
	"#  \"SHA-256 ShortMsg\" information\n"
	"[L = 32]\n"
	"\n"
	"Len = 0\n"
	"Msg = 00\n"
	"MD = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
	"\n"
	"Len = 24\n"
	"Msg = 616263\n"
	"MD = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n";

static void test_sha_messages(void **state)
{
	char bad[sizeof(sha256_msgs)];

	(void)state;
	assert_int_equal(run("SHA256ShortMsg.rsp", sha256_msgs), 0);
	assert_int_equal(t.run.passed, 2);
	assert_int_equal(t.run.failed, 0);
	memcpy(bad, sha256_msgs, sizeof(bad));
	*strstr(bad, "ba7816bf") = 'c';
	assert_int_equal(run("SHA256ShortMsg.rsp", bad), 0);
	assert_int_equal(t.run.failed, 1);
	assert_string_equal(t.note, "line 8 Len = 24 MD: expected "
			    "ca7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad got "
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/*
 * AESAVS 6.4 ECB: the first two records of NIST's ECBMCT128.rsp [ENCRYPT].
 * Record 1's KEY and PLAINTEXT follow from record 0 by the update rules.
 */
static const char ecb_mct[] =
	"[ENCRYPT]\n\n"
	"COUNT = 0\n"
	"KEY = 139a35422f1d61de3c91787fe0507afd\n"
	"PLAINTEXT = b9145a768b7dc489a096b546f43b231f\n"
	"CIPHERTEXT = d7c3ffac9031238650901e157364c386\n\n"
	"COUNT = 1\n"
	"KEY = c459caeebf2c42586c01666a9334b97b\n"
	"PLAINTEXT = d7c3ffac9031238650901e157364c386\n"
	"CIPHERTEXT = bc3637da2daf8fcf7c68bb28c143a0a4\n";

/* CBC-192 decrypt and CFB128-256 encrypt, two records each, computed with
 * Python's `cryptography` package following AESAVS 6.4.2. */
static const char cbc192_mct[] =
	"[DECRYPT]\n\n"
	"COUNT = 0\n"
	"KEY = 000102030405060708090a0b0c0d0e0f1011121314151617\n"
	"IV = f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff\n"
	"CIPHERTEXT = 00112233445566778899aabbccddeeff\n"
	"PLAINTEXT = 29b04b292a55dc81e04b720502cf508c\n\n"
	"COUNT = 1\n"
	"KEY = 23f48a810d5e281a21b941222658d28ef05a601616da469b\n"
	"IV = 29b04b292a55dc81e04b720502cf508c\n"
	"CIPHERTEXT = 90e408a87729ccd623f58882095b2e1d\n"
	"PLAINTEXT = 921eab87e09b968dbc4df51701e3cc34\n";

static const char cfb256_mct[] =
	"[ENCRYPT]\n\n"
	"COUNT = 0\n"
	"KEY = 603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4\n"
	"IV = 000102030405060708090a0b0c0d0e0f\n"
	"PLAINTEXT = 6bc1bee22e409f96e93d7e117393172a\n"
	"CIPHERTEXT = a0a9456b44df928934af058f7d1aa737\n\n"
	"COUNT = 1\n"
	"KEY = 65fb56d6a078588485b6089d3af52c82bf9c696c7fbe9a5e1937152c740e78c3\n"
	"IV = a0a9456b44df928934af058f7d1aa737\n"
	"PLAINTEXT = 05c6bdc6b5b2293aaec5a66dbf885b03\n"
	"CIPHERTEXT = fea060648828e2d5dd77b9ef789ab88d\n";

static void test_mct(void **state)
{
	char bad[sizeof(cbc192_mct)];

	(void)state;
	assert_int_equal(run("ECBMCT128.rsp", ecb_mct), 0);
	assert_int_equal(t.run.passed, 2);
	assert_int_equal(run("CBCMCT192.rsp", cbc192_mct), 0);
	assert_int_equal(t.run.passed, 2);
	assert_int_equal(run("CFB128MCT256.rsp", cfb256_mct), 0);
	assert_int_equal(t.run.passed, 2);
	assert_int_equal(t.nnotes, 0);

	/* A second record whose IV does not follow from the first. */
	memcpy(bad, cbc192_mct, sizeof(bad));
	*strstr(bad, "IV = 29b0") = '\0';
	strcat(bad, "IV = 39b04b292a55dc81e04b720502cf508c\n"
		    "CIPHERTEXT = 90e408a87729ccd623f58882095b2e1d\n"
		    "PLAINTEXT = 921eab87e09b968dbc4df51701e3cc34\n");
	assert_int_equal(run("CBCMCT192.rsp", bad), 0);
	assert_int_equal(t.run.passed, 1);
	assert_int_equal(t.run.failed, 1);
	assert_string_equal(t.note, "line 9 [DECRYPT] COUNT = 1: IV does not follow from COUNT = 0: "
			    "expected 29b04b292a55dc81e04b720502cf508c got 39b04b292a55dc81e04b720502cf508c");
}

/* SHAVS 6.4: NIST's SHA256Monte.rsp (CAVS 11.1, byte oriented), first checkpoints. */
static const char sha256_monte[] =
	"[L = 32]\n\n"
	"Seed = 6d1e72ad03ddeb5de891e572e2396f8da015d899ef0e79503152d6010a3fe691\n\n"
	"COUNT = 0\n"
	"MD = e93c330ae5447738c8aa85d71a6c80f2a58381d05872d26bdd39f1fcd4f2b788\n\n"
	"COUNT = 1\n"
	"MD = 2e78f8c8772ea7c9331d41ed3f9cdf27d8f514a99342ee766ee3b8b0d0b121c0\n\n"
	"COUNT = 2\n"
	"MD = d6a23dff1b7f2eddc1a212f8a218397523a799b07386a30692fd6fe9d2bf0944\n";

static void test_monte(void **state)
{
	char bad[sizeof(sha256_monte)];

	(void)state;
	assert_int_equal(run("SHA256Monte.rsp", sha256_monte), 0);
	assert_int_equal(t.run.passed, 3);
	memcpy(bad, sha256_monte, sizeof(bad));
	*strstr(bad, "2e78f8c8") = '3';
	assert_int_equal(run("SHA256Monte.rsp", bad), 0);
	/* The seed of each checkpoint is the file's previous MD, so the
	 * corrupted value fails COUNT = 1 and, as a seed, COUNT = 2. */
	assert_int_equal(t.run.passed, 1);
	assert_int_equal(t.run.failed, 2);
	assert_non_null(strstr(t.note, "line 8 COUNT = 1 MD: expected 3e78f8c8"));
	assert_int_equal(run("SHA256Monte.rsp", "[L = 32]\n\nCOUNT = 0\n"
			     "MD = e93c330ae5447738c8aa85d71a6c80f2a58381d05872d26bdd39f1fcd4f2b788\n"),
			 CAVP_ESYNTAX);
	assert_string_equal(cavp_error(&t.p), "line 3: COUNT record before any Seed");
}

/* ---- Malformed input: the error names the line ---- */

struct bad_case {
	const char *file, *text, *error;
};

static const struct bad_case bad_cases[] = {
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000g00\n",
	  "line 3: KEY: bad hex digit 'g' at column 36" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 0000000000000000000000000000000\n",
	  "line 3: KEY: odd number of hex digits (31)" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 000000000000000000000000000000000000000000000000\n",
	  "line 3: KEY is 24 bytes, want 16" },
	{ "ECBGFSbox128.rsp", "# header\n\n[ENCRYPT]\n\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\n\nCOUNT = 1\n",
	  "line 5: record without CIPHERTEXT" },
	{ "CBCGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\nCIPHERTEXT = 0336763e966d92595a567cc9ce537f5e\n",
	  "line 2: record without IV" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nIV = 00000000000000000000000000000000\n",
	  "line 3: unexpected field 'IV' for this file kind (aes-128-ecb KAT)" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nTWEAK = 00\n",
	  "line 3: unexpected field 'TWEAK'" },
	{ "ECBGFSbox128.rsp", "COUNT = 0\n", "line 1: COUNT before any [section] header" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT\n", "line 1: section header without ']'" },
	{ "ECBGFSbox128.rsp", "\n[L = 20]\n", "line 2: unknown section [L = 20] for this file kind (aes-128-ecb KAT)" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = x1\n", "line 2: COUNT: not a decimal number" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "KEY = 00000000000000000000000000000000\n", "line 4: KEY given twice in the record of line 2" },
	{ "ECBGFSbox128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6f34481ec3cc627bacd5dc3fb08f273e6\n"
	  "CIPHERTEXT = 0336763e966d92595a567cc9ce537f5e0336763e966d92595a567cc9ce537f5e\n",
	  "line 4: PLAINTEXT is 32 bytes, want 16 (one block)" },
	{ "ECBMMT128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273\nCIPHERTEXT = 0336763e966d92595a567cc9ce537f\n",
	  "line 4: PLAINTEXT is 15 bytes, want a multiple of 16" },
	{ "ECBMMT128.rsp", "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\nCIPHERTEXT = 0336763e\n",
	  "line 5: CIPHERTEXT is 4 bytes, PLAINTEXT 16" },
	{ "ECBMMT128.rsp", "[ENCRYPT]\nthis is not a field\n",
	  "line 2: not NAME = VALUE, a [section] or a comment" },
	{ "SHA1ShortMsg.rsp", "[L = 32]\n", "line 1: [L = 32] does not match sha1 (20-byte digests)" },
	{ "SHA1ShortMsg.rsp", "[L = 20]\nLen = 7\nMsg = 00\nMD = da39a3ee5e6b4b0d3255bfef95601890afd80709\n",
	  "line 2: Len = 7 is not whole bytes" },
	{ "SHA1ShortMsg.rsp", "[L = 20]\nLen = 16\nMsg = 36\nMD = da39a3ee5e6b4b0d3255bfef95601890afd80709\n",
	  "line 3: Msg is 1 bytes, Len = 16 says 2" },
	{ "SHA1ShortMsg.rsp", "[L = 20]\nLen = 8\nMsg = 36\nMD = c1dfd96eea8cc2b62785275bca38ac261256e2\n",
	  "line 4: MD is 19 bytes, want 20" },
	{ "SHA1Monte.rsp", "[L = 20]\nSeed = 00\n", "line 2: Seed is 1 bytes, want 20" },
	{ "SHA1ShortMsg.rsp", "# only comments\n\n", "line 2: no test records in the file" },
	{ "SHA1ShortMsg.rsp", "", "line 1: no test records in the file" },
};

static void test_malformed(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		int rc = run(c->file, c->text);
		if (rc != CAVP_ESYNTAX || !strstr(cavp_error(&t.p), c->error))
			fail_msg("case %zu: rc %d, error '%s', want '%s'", i, rc,
				 cavp_error(&t.p), c->error);
	}
}

static void test_line_too_long(void **state)
{
	static char text[LINE_CAP + 64];

	(void)state;
	strcpy(text, "[L = 20]\nMsg = ");
	memset(text + strlen(text), 'a', LINE_CAP);
	assert_int_equal(run("SHA1LongMsg.rsp", text), CAVP_ESYNTAX);
	assert_string_equal(cavp_error(&t.p), "line 2: longer than 4096 bytes");
}

/* ---- Engines that do not claim the file ---- */

static int enc_only_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	return engine_aes_find("software")->set_key(s, key, key_bits);
}

static int enc_only_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
			  uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	return engine_aes_find("software")->crypt(s, mode, dir, iv, in, out, len);
}

static void enc_only_release(struct aes_session *s)
{
	engine_aes_find("software")->release(s);
}

static const struct aes_engine enc_only = {
	.name = "enc-only",
	.supported = { AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT), 0, 0 },
	.align = 1,
	.set_key = enc_only_set_key,
	.crypt = enc_only_crypt,
	.release = enc_only_release,
};

static void test_unclaimed(void **state)
{
	(void)state;
	engine_register_aes(&enc_only);
	assert_int_equal(run_as("CBCMMT128.rsp", cbc_mmt, 0, "enc-only"), CAVP_EUNCLAIMED);
	assert_int_equal(t.run.passed, 1);	/* the [ENCRYPT] record ran */
	assert_string_equal(cavp_error(&t.p), "engine enc-only does not claim aes-128-cbc decrypt");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_kinds, setup),
		cmocka_unit_test_setup(test_streaming_any_chunk, setup),
		cmocka_unit_test_setup(test_failure_named, setup),
		cmocka_unit_test_setup(test_sha_messages, setup),
		cmocka_unit_test_setup(test_mct, setup),
		cmocka_unit_test_setup(test_monte, setup),
		cmocka_unit_test_setup(test_malformed, setup),
		cmocka_unit_test_setup(test_line_too_long, setup),
		cmocka_unit_test_setup(test_unclaimed, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
