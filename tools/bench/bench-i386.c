/*
 * bench-i386: the i386 code the image runs (lib/crypto/aes, drivers/aesni and drivers/vperm,
 * compiled with the kernel's flags) against Debian's i386 libcrypto 3, cell
 * by cell: ECB encrypt/decrypt, CBC encrypt/decrypt and CTR, AES-128/192/
 * 256, over BUF_BYTES buffers. Built and run by `make bench-i386`
 * (mk/bench-i386.mk, tools/bench/bench-i386.sh prints the table).
 *
 *   bench-i386 soft|aesni|vperm [--time]
 *   bench-i386 models
 *   bench-i386 montmul
 *
 * soft:  lib/crypto/aes against OpenSSL on whatever path OPENSSL_ia32cap selects
 *        (the script sets the Geode LX's and the VIA C3's CPUID);
 * aesni: drivers/aesni against OpenSSL on its own (AES-NI) path;
 * vperm: drivers/vperm against OpenSSL's vpaes-x86 (the script sets a VIA
 *        Nano's CPUID: SSSE3, no AES-NI).
 *
 * Instruction counts: around each competitor's REPS_COUNT runs the program
 * makes the marker system call (MARK_SYSCALL, "not implemented" for Linux)
 * that the insn-count plugin of qemu-i386 (tools/bench/insn-count.c)
 * answers with its running count of executed guest instructions. Cell 0
 * holds two markers with nothing between them: the markers' own cost.
 * Outside the plugin the markers cost a failed system call each.
 *
 * --time (only where the kernel runs i386 programs natively): wall-clock
 * nanoseconds per byte, the minimum of REPS_TIME runs, ours and OpenSSL
 * timed in turn run by run so a clock change affects both alike.
 *
 * Every cell first checks that ours and OpenSSL give the same output for
 * the same key, IV and data (exit 1 if not). Output, one line per fact:
 *   openssl VERSION ia32cap 0xWORD0:0xWORD1 path NAME
 *   cell ID ENGINE MODE BITS BYTES REPS
 *   time ID OURS_NS_PER_BYTE OPENSSL_NS_PER_BYTE
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tools/bench/bench-i386-abi.h"

#define BUF_BYTES	8192
#define REPS_COUNT	2	/* instruction counts are exact: two runs suffice */
#define REPS_TIME	300	/* timed runs per competitor; the minimum is kept */
#define MARK_SYSCALL	0x7ffe	/* tools/bench/insn-count.c */

/*
 * The part of libcrypto 3's API this program calls, declared here: the
 * library is Debian's i386 build extracted from the package (mk/
 * bench-i386.mk), and the host's headers are those of another
 * architecture. Signatures: EVP_EncryptInit(3), OpenSSL_version(3),
 * OPENSSL_ia32cap(3).
 */
typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct evp_cipher_st EVP_CIPHER;
EVP_CIPHER_CTX *EVP_CIPHER_CTX_new(void);
void EVP_CIPHER_CTX_free(EVP_CIPHER_CTX *c);
int EVP_CipherInit_ex(EVP_CIPHER_CTX *c, const EVP_CIPHER *t, void *engine,
		      const unsigned char *key, const unsigned char *iv, int enc);
int EVP_CipherUpdate(EVP_CIPHER_CTX *c, unsigned char *out, int *outl,
		     const unsigned char *in, int inl);
int EVP_CIPHER_CTX_set_padding(EVP_CIPHER_CTX *c, int pad);
const EVP_CIPHER *EVP_aes_128_ecb(void), *EVP_aes_192_ecb(void), *EVP_aes_256_ecb(void);
const EVP_CIPHER *EVP_aes_128_cbc(void), *EVP_aes_192_cbc(void), *EVP_aes_256_cbc(void);
const EVP_CIPHER *EVP_aes_128_ctr(void), *EVP_aes_192_ctr(void), *EVP_aes_256_ctr(void);
const char *OpenSSL_version(int t);
typedef struct bignum_st BIGNUM;
typedef struct bignum_ctx BN_CTX;
typedef struct bn_mont_ctx_st BN_MONT_CTX;
BN_CTX *BN_CTX_new(void);
BIGNUM *BN_new(void);
BN_MONT_CTX *BN_MONT_CTX_new(void);
int BN_MONT_CTX_set(BN_MONT_CTX *mont, const BIGNUM *mod, BN_CTX *ctx);
BIGNUM *BN_lebin2bn(const unsigned char *s, int len, BIGNUM *ret);
int BN_bn2lebinpad(const BIGNUM *a, unsigned char *to, int tolen);
int BN_mod_mul_montgomery(BIGNUM *r, const BIGNUM *a, const BIGNUM *b, BN_MONT_CTX *mont,
			  BN_CTX *ctx);

enum mode { ECB_ENC, ECB_DEC, CBC_ENC, CBC_DEC, CTR, NMODES };
/* Our code: lib/crypto/aes, drivers/aesni, drivers/vperm. */
enum ours { OURS_SOFT, OURS_AESNI, OURS_VPERM };
static const char *const ours_name[] = { "soft", "aesni", "vperm" };
static const char *const ours_code[] = { "lib/crypto/aes", "drivers/aesni", "drivers/vperm" };
static const char *const mode_name[NMODES] = {
	"ecb-encrypt", "ecb-decrypt", "cbc-encrypt", "cbc-decrypt", "ctr"
};

static uint8_t buf_in[BUF_BYTES] __attribute__((aligned(64)));
static uint8_t buf_out[BUF_BYTES] __attribute__((aligned(64)));
static uint8_t buf_ref[BUF_BYTES] __attribute__((aligned(64)));

struct cell {
	enum mode mode;
	unsigned bits;
	enum ours ours;
	struct aes_ctx soft;
	struct aesni_key enc, dec;
	struct vperm_key vp;
	uint8_t iv[16];
	EVP_CIPHER_CTX *evp;
};

static void mark(unsigned cell, unsigned what)
{
	syscall(MARK_SYSCALL, cell, what);
}

static const EVP_CIPHER *evp_cipher(enum mode m, unsigned bits)
{
	static const EVP_CIPHER *(*const tab[3][3])(void) = {
		{ EVP_aes_128_ecb, EVP_aes_192_ecb, EVP_aes_256_ecb },
		{ EVP_aes_128_cbc, EVP_aes_192_cbc, EVP_aes_256_cbc },
		{ EVP_aes_128_ctr, EVP_aes_192_ctr, EVP_aes_256_ctr },
	};
	return tab[m <= ECB_DEC ? 0 : m <= CBC_DEC ? 1 : 2][(bits - 128) / 64]();
}

static void ours_run_len(struct cell *c, size_t len)
{
	static const enum vperm_op vp_op[NMODES] = { VPERM_ECB_ENCRYPT, VPERM_ECB_DECRYPT,
						     VPERM_CBC_ENCRYPT, VPERM_CBC_DECRYPT, VPERM_CTR };

	if (c->ours == OURS_VPERM) {
		bi_vperm_crypt(&c->vp, vp_op[c->mode], c->iv, buf_in, buf_out, len / 16);
		return;
	}
	switch (c->mode) {
	case ECB_ENC:
		if (c->ours == OURS_AESNI)
			bi_aesni_ecb_encrypt(&c->enc, buf_in, buf_out, len);
		else
			bi_aes_ecb_encrypt(&c->soft, buf_in, buf_out, len);
		break;
	case ECB_DEC:
		if (c->ours == OURS_AESNI)
			bi_aesni_ecb_decrypt(&c->dec, buf_in, buf_out, len);
		else
			bi_aes_ecb_decrypt(&c->soft, buf_in, buf_out, len);
		break;
	case CBC_ENC:
		if (c->ours == OURS_AESNI)
			bi_aesni_cbc_encrypt(&c->enc, c->iv, buf_in, buf_out, len);
		else
			bi_aes_cbc_encrypt(&c->soft, c->iv, buf_in, buf_out, len);
		break;
	case CBC_DEC:
		if (c->ours == OURS_AESNI)
			bi_aesni_cbc_decrypt(&c->dec, c->iv, buf_in, buf_out, len);
		else
			bi_aes_cbc_decrypt(&c->soft, c->iv, buf_in, buf_out, len);
		break;
	case CTR:
		if (c->ours == OURS_AESNI)
			bi_aesni_ctr(&c->enc, c->iv, buf_in, buf_out, len);
		else
			bi_aes_ctr(&c->soft, c->iv, buf_in, buf_out, len);
		break;
	default:
		break;
	}
}

static void ours_run(struct cell *c)
{
	ours_run_len(c, BUF_BYTES);
}

static void evp_run(struct cell *c)
{
	int n = 0;

	if (!EVP_CipherUpdate(c->evp, buf_out, &n, buf_in, BUF_BYTES) || n != BUF_BYTES) {
		fprintf(stderr, "bench-i386: EVP_CipherUpdate failed\n");
		exit(1);
	}
}

/* Sets up a cell with a key and IV derived from its number; checks that
 * ours and OpenSSL agree on one buffer. Returns 0 or -1. */
static int cell_init(struct cell *c, enum mode m, unsigned bits, enum ours ours, unsigned id)
{
	uint8_t key[32];
	unsigned i;
	int enc = m == ECB_ENC || m == CBC_ENC || m == CTR;

	memset(c, 0, sizeof(*c));
	c->mode = m;
	c->bits = bits;
	c->ours = ours;
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(id * 31 + i * 7);
	for (i = 0; i < 16; i++)
		c->iv[i] = (uint8_t)(id + i);
	c->iv[15] = 0xf0;	/* CTR: the low byte carries within the buffer */
	c->evp = EVP_CIPHER_CTX_new();
	if (!c->evp || !EVP_CipherInit_ex(c->evp, evp_cipher(m, bits), NULL, key, c->iv, enc) ||
	    !EVP_CIPHER_CTX_set_padding(c->evp, 0)) {
		fprintf(stderr, "bench-i386: EVP init failed for %s-%u\n", mode_name[m], bits);
		return -1;
	}
	if (ours == OURS_AESNI ? bi_aesni_expand_key(&c->enc, &c->dec, key, bits) :
	    ours == OURS_VPERM ? bi_vperm_expand_key(&c->vp, key, bits) :
				 bi_aes_set_key(&c->soft, key, bits / 8)) {
		fprintf(stderr, "bench-i386: key setup failed for %u bits\n", bits);
		return -1;
	}
	evp_run(c);
	memcpy(buf_ref, buf_out, BUF_BYTES);
	ours_run(c);
	if (memcmp(buf_ref, buf_out, BUF_BYTES) != 0) {
		fprintf(stderr, "bench-i386: MISMATCH %s %s-%u against OpenSSL\n",
			ours_code[ours], mode_name[m], bits);
		return -1;
	}
	return 0;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void time_cell(struct cell *c, unsigned id)
{
	double best_ours = 1e30, best_evp = 1e30, t0, t1, t2;
	unsigned i;

	for (i = 0; i < REPS_TIME; i++) {
		t0 = now_ns();
		ours_run(c);
		t1 = now_ns();
		evp_run(c);
		t2 = now_ns();
		if (t1 - t0 < best_ours)
			best_ours = t1 - t0;
		if (t2 - t1 < best_evp)
			best_evp = t2 - t1;
	}
	printf("time %u %.3f %.3f\n", id, best_ours / BUF_BYTES, best_evp / BUF_BYTES);
}

/*
 * OpenSSL's capability vector as it will read it (OPENSSL_ia32cap(3)):
 * the variable when it gives a value (its first 64-bit vector: CPUID leaf
 * 1 EDX in bits 0-31, ECX in 32-63; the vector after ':' is leaf 7's and
 * not read here; this program does not accept the "~" form), else CPUID
 * leaf 1, EDX in word 0 and ECX in word 1.
 * libcrypto 3 does not export the vector itself. Returns 0, or -1 for a
 * form it does not parse.
 */
static int openssl_cap(unsigned int cap[2])
{
	const char *env = getenv("OPENSSL_ia32cap");
	unsigned int a, b, c, d;
	unsigned long long v;
	char *end;

	if (!env) {
		__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
		cap[0] = d;
		cap[1] = c;
		return 0;
	}
	v = strtoull(env, &end, 0);
	if (end == env || (*end && *end != ':'))
		return -1;
	cap[0] = (unsigned int)v;
	cap[1] = (unsigned int)(v >> 32);
	return 0;
}

/* The code OpenSSL 3.0 picks for i386 AES from its capability vector:
 * OPENSSL_ia32cap(3) bit 57 AES-NI, 41 SSSE3 (vpaes), 25 SSE. */
static const char *openssl_path(const unsigned int *cap)
{
	if (cap[1] & 1u << (57 - 32))
		return "aesni-x86";
	if (cap[1] & 1u << (41 - 32))
		return "vpaes-x86";
	if (cap[0] & 1u << 25)
		return "aes-586+sse";
	return "aes-586";
}

/*
 * The fixed cost of one call: REPS16 calls of 16 bytes each, ECB encrypt
 * and CTR at 128 bits, ours and OpenSSL's EVP_CipherUpdate, each between
 * two marks (cells 101, 102: "call16 ID MODE CALLS"). The table gives
 * instructions per call and CTR's over ECB's.
 */
#define REPS16 2000
static void call16_cells(void)
{
	static const enum mode modes[2] = { ECB_ENC, CTR };
	struct cell c;
	unsigned id, i;
	int n;

	for (id = 0; id < 2; id++) {
		if (cell_init(&c, modes[id], 128, OURS_AESNI, 101 + id))
			exit(1);
		printf("call16 %u %s %d\n", 101 + id, mode_name[modes[id]], REPS16);
		fflush(stdout);
		mark(101 + id, 0);
		for (i = 0; i < REPS16; i++) {
			if (modes[id] == ECB_ENC)
				bi_aesni_ecb_encrypt(&c.enc, buf_in, buf_out, 16);
			else
				bi_aesni_ctr(&c.enc, c.iv, buf_in, buf_out, 16);
		}
		mark(101 + id, 1);
		for (i = 0; i < REPS16; i++)
			if (!EVP_CipherUpdate(c.evp, buf_out, &n, buf_in, 16) || n != 16)
				exit(1);
		mark(101 + id, 2);
		EVP_CIPHER_CTX_free(c.evp);
	}
}

/*
 * The cycle models' input (make bench-models, tools/bench/bench-models.py):
 * for each modelled cell, ours and OpenSSL's call on MODEL_SMALL and on
 * MODEL_LARGE blocks, each alone between two markers (segments
 * MODEL_FIRST + 10 k, 0..3; k in the order of model_cells[]; the marker
 * after the last is 1, MODEL_FIRST + 10 k), which the insn-count plugin
 * traces (trace_from=MODEL_FIRST). The difference of the two calls is the cost of
 * MODEL_LARGE - MODEL_SMALL blocks in a call's steady state. Output, one
 * line per cell: "model ID ENGINE MODE BITS SMALL LARGE".
 */
#define MODEL_FIRST	200
#define MODEL_SMALL	32	/* 512 bytes: aes-586 takes its table path from 512 bytes on */
#define MODEL_LARGE	64
static void model_cells(void)
{
	static const enum mode modes[] = { CBC_ENC, CBC_DEC, ECB_ENC };
	struct cell c;
	unsigned k, id;
	int n;

	for (k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		id = MODEL_FIRST + 10 * k;
		if (cell_init(&c, modes[k], 128, OURS_SOFT, id))
			exit(1);
		printf("model %u soft %s 128 %d %d\n", id, mode_name[modes[k]], MODEL_SMALL, MODEL_LARGE);
		fflush(stdout);
		mark(id, 0);
		ours_run_len(&c, 16 * MODEL_SMALL);
		mark(id, 1);
		ours_run_len(&c, 16 * MODEL_LARGE);
		mark(id, 2);
		if (!EVP_CipherUpdate(c.evp, buf_out, &n, buf_in, 16 * MODEL_SMALL))
			exit(1);
		mark(id, 3);
		if (!EVP_CipherUpdate(c.evp, buf_out, &n, buf_in, 16 * MODEL_LARGE))
			exit(1);
		mark(1, id);
		EVP_CIPHER_CTX_free(c.evp);
		bi_aes_wipe(&c.soft);
	}
}

/*
 * The 1024-bit Montgomery multiplication of lib/vectors/montmul_kat.c:
 * REPS_MM of ours (lib/crypto/montmul's montmul(): the product, the
 * reduction and the final subtraction; on the SSE2 path, montmul_raw_sse2,
 * when OpenSSL's capability vector has SSE2) between marks (150, 0) and (150, 1),
 * REPS_MM of OpenSSL's BN_mod_mul_montgomery() on the same operands
 * (bn_mul_mont, on the path OPENSSL_ia32cap selects: integer, or SSE2
 * with bit 26) between (150, 1) and (150, 2), after checking that both
 * give the known answer. "mont 150 PATH REPS OURS": OURS names our code,
 * PATH is OpenSSL's
 * (bn_mul_mont's SSE2 test, OPENSSL_ia32cap(3) bit 26). The insn-count
 * plugin's calls= output finds bn_mul_mont itself (not exported): the
 * leaf function that ran the most instructions in segment (150, 1).
 */
#define REPS_MM		20
static int montmul_cell(const unsigned int *cap)
{
	const struct montmul_kat *k = bi_montmul_kat();
	uint32_t r[MONTMUL_KAT_WORDS], tmp[MONTMUL_KAT_WORDS + 2];
	uint8_t le[4 * MONTMUL_KAT_WORDS];
	BN_CTX *ctx = BN_CTX_new();
	BN_MONT_CTX *mont = BN_MONT_CTX_new();
	BIGNUM *a, *b, *m, *res = BN_new();
	int sse2 = (cap[0] & 1u << 26) != 0;	/* ours takes the path OpenSSL takes */
	int i;

	a = BN_lebin2bn((const unsigned char *)k->a, sizeof(k->a), NULL);
	b = BN_lebin2bn((const unsigned char *)k->b, sizeof(k->b), NULL);
	m = BN_lebin2bn((const unsigned char *)k->m, sizeof(k->m), NULL);
	if (!ctx || !mont || !a || !b || !m || !res || !BN_MONT_CTX_set(mont, m, ctx) ||
	    !BN_mod_mul_montgomery(res, a, b, mont, ctx) ||
	    BN_bn2lebinpad(res, le, sizeof(le)) != (int)sizeof(le)) {
		fprintf(stderr, "bench-i386: OpenSSL's Montgomery multiplication failed\n");
		return -1;
	}
	bi_montmul(sse2, r, k->a, k->b, k->m, MONTMUL_KAT_WORDS, tmp);
	if (memcmp(le, k->expect, sizeof(le)) != 0 || memcmp(r, k->expect, sizeof(r)) != 0) {
		fprintf(stderr, "bench-i386: MISMATCH montmul against the known answer (%s)\n",
			memcmp(r, k->expect, sizeof(r)) ? "lib/crypto/montmul" : "OpenSSL");
		return -1;
	}
	printf("mont 150 %s %d %s\n", sse2 ? "sse2" : "integer", REPS_MM,
	       sse2 ? "montmul_raw_sse2" : "lib/crypto/montmul");
	fflush(stdout);
	mark(150, 0);
	for (i = 0; i < REPS_MM; i++)
		bi_montmul(sse2, r, k->a, k->b, k->m, MONTMUL_KAT_WORDS, tmp);
	mark(150, 1);
	for (i = 0; i < REPS_MM; i++)
		BN_mod_mul_montgomery(res, a, b, mont, ctx);
	mark(150, 2);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned bits[3] = { 128, 192, 256 };
	unsigned int cap[2];
	struct cell c;
	int timed, k, i;
	enum ours ours;
	unsigned id = 0;
	enum mode m;

	if (argc == 2 && strcmp(argv[1], "montmul") == 0) {
		if (openssl_cap(cap))
			return 2;
		printf("openssl %s ia32cap 0x%08x:0x%08x path bn_mul_mont\n", OpenSSL_version(0),
		       cap[0], cap[1]);
		mark(0, 0);
		mark(0, 1);
		return montmul_cell(cap) ? 1 : 0;
	}
	if (argc == 2 && strcmp(argv[1], "models") == 0) {
		if (openssl_cap(cap))
			return 2;
		printf("openssl %s ia32cap 0x%08x:0x%08x path %s\n", OpenSSL_version(0), cap[0],
		       cap[1], openssl_path(cap));
		for (i = 0; i < BUF_BYTES; i++)
			buf_in[i] = (uint8_t)(i * 13 + 5);
		model_cells();
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "soft") && strcmp(argv[1], "aesni") && strcmp(argv[1], "vperm")) ||
	    (argc > 2 && strcmp(argv[2], "--time")) || argc > 3) {
		fprintf(stderr, "usage: bench-i386 soft|aesni|vperm [--time] | models | montmul\n");
		return 2;
	}
	ours = !strcmp(argv[1], "aesni") ? OURS_AESNI : !strcmp(argv[1], "vperm") ? OURS_VPERM : OURS_SOFT;
	timed = argc > 2;
	if (openssl_cap(cap)) {
		fprintf(stderr, "bench-i386: cannot read OPENSSL_ia32cap '%s'\n",
			getenv("OPENSSL_ia32cap"));
		return 2;
	}
	printf("openssl %s ia32cap 0x%08x:0x%08x path %s\n", OpenSSL_version(0), cap[0], cap[1],
	       openssl_path(cap));
	if (ours == OURS_AESNI && strcmp(openssl_path(cap), "aesni-x86") != 0) {
		fprintf(stderr, "bench-i386: OpenSSL is not on its AES-NI path\n");
		return 1;
	}
	if (ours == OURS_VPERM && strcmp(openssl_path(cap), "vpaes-x86") != 0) {
		fprintf(stderr, "bench-i386: OpenSSL is not on its vector-permute path\n");
		return 1;
	}
	for (i = 0; i < BUF_BYTES; i++)
		buf_in[i] = (uint8_t)(i * 13 + 5);
	mark(0, 0);
	mark(0, 1);
	for (m = 0; m < NMODES; m++) {
		for (k = 0; k < 3; k++) {
			id++;
			if (cell_init(&c, m, bits[k], ours, id))
				return 1;
			printf("cell %u %s %s %u %d %d\n", id, ours_name[ours],
			       mode_name[m], bits[k], BUF_BYTES, REPS_COUNT);
			if (timed) {
				time_cell(&c, id);
			} else {
				mark(id, 0);
				for (i = 0; i < REPS_COUNT; i++)
					ours_run(&c);
				mark(id, 1);
				for (i = 0; i < REPS_COUNT; i++)
					evp_run(&c);
				mark(id, 2);
			}
			EVP_CIPHER_CTX_free(c.evp);
			bi_aes_wipe(&c.soft);
			fflush(stdout);
		}
	}
	if (ours == OURS_AESNI && !timed)
		call16_cells();
	return 0;
}
