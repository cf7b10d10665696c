/*
 * bench-host: speed of lib/crypto/aes against OpenSSL libcrypto on this host, and a
 * cross-check of lib/crypto/aes against OpenSSL in every mode. Built and run by
 * `make bench-host` (mk/bench.mk), linked with -lcrypto.
 *
 * Figures are TSC ticks per byte (rdtsc between lfences; on CPUs with an
 * invariant TSC a tick is a nominal-frequency cycle), the minimum over
 * REPS runs over one BUF_BYTES buffer, AES-128 throughout:
 *   software: lib/crypto/aes beside OpenSSL with its AES-NI and SSSE3 code masked
 *             off, so it runs its table-based code (aes-x86_64);
 *   aes-ni:   our AES-NI engine (drivers/aesni) beside OpenSSL's default
 *             (AES-NI) path, when the host CPU has AES-NI.
 * The figures are printed, not judged: no exit status depends on them.
 *
 * OpenSSL reads OPENSSL_ia32cap once, when libcrypto initialises at load
 * time (OPENSSL_ia32cap(3)), so one process cannot hold several OpenSSL
 * paths: the program re-executes itself with the variable set for each
 * software figure set (argument MASKED_ARG) and runs the AES-NI half
 * itself. That a mask took effect is checked by comparing EVP's speed with
 * that of the table-based AES_encrypt/AES_cbc_encrypt called directly.
 * Within a process the competitors are timed in turn, run by run, so a
 * change of clock or load affects them alike.
 *
 * Exit status: 0, or 1 when lib/crypto/aes disagrees with OpenSSL, drivers/aesni
 * with lib/crypto/aes, or a setup step fails.
 */
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED	/* AES_encrypt & co., for the path check */

#include <openssl/aes.h>
#include <openssl/evp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#include "lib/crypto/aes.h"
#include "lib/crypto/aes_mode.h"
#include "lib/platform/cpuid.h"
#include "lib/host/cpuid_host.h"
#include "drivers/aesni/aesni.h"

#define BUF_BYTES	8192	/* bytes per timed run */
#define REPS		500	/* timed runs per figure; the minimum is kept */
#define WARMUP		50	/* untimed runs first */
#define MAX_TIMED	4	/* competitors timed together */

/*
 * OPENSSL_ia32cap(3): "~" clears the given bits of the first 64-bit
 * capability word. Bit 57 is AES-NI, bit 41 SSSE3 (which selects the
 * vector-permute vpaes and bit-sliced bsaes code), so the table code needs
 * ~(1<<57 | 1<<41) = ~0x200020000000000. (~0x200000200000000 clears bits 57
 * and 33, PCLMULQDQ, and leaves SSSE3: OpenSSL 3.0 then runs vpaes, seen
 * here as EVP ECB at 7.7 ticks/byte against 9.5 for the table code.)
 *
 * Bit 28, documented on the same page, tells OpenSSL's table code whether
 * the data cache is shared between logical cores; when set, its
 * AES_cbc_encrypt takes a slower path with countermeasures against
 * cache-timing attacks. lib/crypto/aes has no such countermeasures, so a second
 * mask, clearing bit 28 as well, gives like-for-like figures.
 */
#define IA32CAP_VAR	"OPENSSL_ia32cap"
#define SOFT_MASK	"~0x200020000000000"	/* AES-NI, SSSE3 */
#define SOFT_MASK_NOCT	"~0x200020010000000"	/* AES-NI, SSSE3, bit 28 */
#define MASKED_ARG	"--openssl-table-path"

/* Targets from the issue: ours / OpenSSL at most these. */
#define SOFT_TARGET	1.25
#define AESNI_TARGET	1.10

/* EVP on a masked path must run within this factor (either way) of the
 * table code called directly for the figures to count as table code
 * against table code (vpaes differs by 20% in ECB, AES-NI by 10x). */
#define PATH_SLACK	1.10

#define CROSS_TRIALS	40	/* random cases per key size */
#define CROSS_SEED	0x5eed0fae5eed0fa1ull

static uint8_t buf_in[BUF_BYTES] __attribute__((aligned(64)));
static uint8_t buf_out[BUF_BYTES] __attribute__((aligned(64)));

/* SP 800-38A F.1.1 key; any key would do. */
static const uint8_t bench_key[16] = {
	0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
	0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
};

/* ---- timing ---- */

static inline uint64_t tsc(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

typedef void (*run_fn)(void *arg);

struct timed {
	run_fn fn;
	void *arg;
	double tpb;	/* result: minimum TSC ticks per byte */
};

/*
 * Times n (<= MAX_TIMED) competitors over one BUF_BYTES buffer each, in
 * turn run by run, and leaves each one's minimum in ticks per byte.
 */
static void measure(struct timed *t, int n)
{
	uint64_t best[MAX_TIMED], t0, t1;
	int i, k;

	for (k = 0; k < n; k++) {
		best[k] = UINT64_MAX;
		for (i = 0; i < WARMUP; i++)
			t[k].fn(t[k].arg);
	}
	for (i = 0; i < REPS; i++) {
		for (k = 0; k < n; k++) {
			t0 = tsc();
			t[k].fn(t[k].arg);
			t1 = tsc();
			if (t1 - t0 < best[k])
				best[k] = t1 - t0;
		}
	}
	for (k = 0; k < n; k++)
		t[k].tpb = (double)best[k] / BUF_BYTES;
}

/* ---- what is timed ---- */

struct ours {
	struct aes_ctx ctx;
	uint8_t iv[16];
};

static void ours_cbc(void *arg)
{
	struct ours *o = arg;

	aes_cbc_encrypt(&o->ctx, o->iv, buf_in, buf_out, BUF_BYTES);
}

static void ours_ecb(void *arg)
{
	struct ours *o = arg;

	aes_ecb_encrypt(&o->ctx, buf_in, buf_out, BUF_BYTES);
}

static void evp_run(void *arg)
{
	EVP_CIPHER_CTX *x = arg;
	int n;

	if (!EVP_EncryptUpdate(x, buf_out, &n, buf_in, BUF_BYTES) || n != BUF_BYTES) {
		fprintf(stderr, "bench-host: EVP_EncryptUpdate failed\n");
		exit(1);
	}
}

/* OpenSSL's table code called directly (deprecated API, still exported). */
struct direct {
	AES_KEY key;
	uint8_t iv[16];
};

static void direct_cbc(void *arg)
{
	struct direct *d = arg;

	AES_cbc_encrypt(buf_in, buf_out, BUF_BYTES, &d->key, d->iv, AES_ENCRYPT);
}

static void direct_ecb(void *arg)
{
	struct direct *d = arg;
	size_t i;

	for (i = 0; i < BUF_BYTES; i += 16)
		AES_encrypt(buf_in + i, buf_out + i, &d->key);
}

/* Our AES-NI engine, drivers/aesni. */
struct ni {
	struct aesni_key enc;
	uint8_t iv[16];
};

static void ni_cbc(void *arg)
{
	struct ni *n = arg;

	aesni_cbc_encrypt(&n->enc, n->iv, buf_in, buf_out, BUF_BYTES);
}

static void ni_ecb(void *arg)
{
	struct ni *n = arg;

	aesni_ecb_encrypt(&n->enc, buf_in, buf_out, BUF_BYTES);
}

static EVP_CIPHER_CTX *evp_new(const EVP_CIPHER *ciph)
{
	static const uint8_t iv[16];
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

	if (!x || !EVP_EncryptInit_ex(x, ciph, NULL, bench_key, iv) ||
	    !EVP_CIPHER_CTX_set_padding(x, 0)) {
		fprintf(stderr, "bench-host: EVP init failed\n");
		exit(1);
	}
	return x;
}

/* ---- cross-check ---- */

static uint64_t rng_state = CROSS_SEED;

/* xorshift64* (Vigna): reproducible test data, not for keys. */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static void rng_fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)(rng() >> 56);
}

/* The order of enum aes_mode (lib/crypto/aes_mode.h), which ours_oneshot() relies on. */
enum mode { ECB, CBC, CFB, OFB, CTR, NMODES };
_Static_assert(ECB == (int)AES_MODE_ECB && CBC == (int)AES_MODE_CBC && CFB == (int)AES_MODE_CFB128 &&
	       OFB == (int)AES_MODE_OFB && CTR == (int)AES_MODE_CTR, "enum mode follows enum aes_mode");
static const char *const mode_name[NMODES] = { "ecb", "cbc", "cfb128", "ofb", "ctr" };

static const EVP_CIPHER *evp_cipher(enum mode m, unsigned key_bytes)
{
	static const EVP_CIPHER *(*const tab[NMODES][3])(void) = {
		{ EVP_aes_128_ecb, EVP_aes_192_ecb, EVP_aes_256_ecb },
		{ EVP_aes_128_cbc, EVP_aes_192_cbc, EVP_aes_256_cbc },
		{ EVP_aes_128_cfb128, EVP_aes_192_cfb128, EVP_aes_256_cfb128 },
		{ EVP_aes_128_ofb, EVP_aes_192_ofb, EVP_aes_256_ofb },
		{ EVP_aes_128_ctr, EVP_aes_192_ctr, EVP_aes_256_ctr },
	};
	return tab[m][(key_bytes - 16) / 8]();
}

/* OpenSSL's answer for one whole message; returns 0 or -1. */
static int evp_oneshot(enum mode m, unsigned key_bytes, int enc, const uint8_t *key,
		       const uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n1 = 0, n2 = 0, ok;

	ok = x && EVP_CipherInit_ex(x, evp_cipher(m, key_bytes), NULL, key, iv, enc) &&
	     EVP_CIPHER_CTX_set_padding(x, 0) &&
	     EVP_CipherUpdate(x, out, &n1, in, (int)len) &&
	     EVP_CipherFinal_ex(x, out + n1, &n2) && (size_t)(n1 + n2) == len;
	EVP_CIPHER_CTX_free(x);
	return ok ? 0 : -1;
}

/* lib/crypto/aes's answer through the one mode dispatch; returns its error code. */
static int ours_oneshot(enum mode m, const struct aes_ctx *c, int enc, const uint8_t *iv0,
			const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t iv[16];

	memcpy(iv, iv0, 16);
	return aes_crypt_mode(c, (enum aes_mode)m, enc ? AES_DIR_ENCRYPT : AES_DIR_DECRYPT,
			      m == ECB ? NULL : iv, in, out, len);
}

/*
 * Random keys, IVs (counters) and messages in every mode and key size,
 * encrypt and decrypt, ours against OpenSSL. OFB and CTR also get lengths
 * that end in a partial block; some counters are about to carry across a
 * 32-bit word. Returns the number of mismatches.
 */
static int crosscheck(void)
{
	static uint8_t pt[1040], ct[1040], o1[1040], o2[1040];
	uint8_t key[32], iv[16];
	struct aes_ctx c;
	unsigned kb, t, cases = 0, bad = 0;
	enum mode m;

	rng_state = CROSS_SEED;
	for (kb = 16; kb <= 32; kb += 8) {
		for (t = 0; t < CROSS_TRIALS; t++) {
			size_t len = 16 * (rng() % 65);

			rng_fill(key, kb);
			rng_fill(iv, 16);
			if (t % 4 == 0)
				memset(iv + 4 + rng() % 9, 0xff, 4);
			rng_fill(pt, sizeof(pt));
			if (aes_set_key(&c, key, kb) != 0) {
				printf("  crosscheck: aes_set_key(%u bytes) failed\n", kb);
				return 1;
			}
			for (m = ECB; m < NMODES; m++) {
				size_t n = len + ((m == OFB || m == CTR) ? rng() % 16 : 0);

				cases++;
				if (evp_oneshot(m, kb, 1, key, iv, pt, ct, n) ||
				    ours_oneshot(m, &c, 1, iv, pt, o1, n) ||
				    memcmp(ct, o1, n) != 0 ||
				    evp_oneshot(m, kb, 0, key, iv, ct, o2, n) ||
				    ours_oneshot(m, &c, 0, iv, ct, o1, n) ||
				    memcmp(o1, o2, n) != 0 || memcmp(o1, pt, n) != 0) {
					printf("  crosscheck: MISMATCH aes-%u-%s len %zu\n",
					       kb * 8, mode_name[m], n);
					bad++;
				}
			}
		}
	}
	aes_wipe(&c);
	printf("  crosscheck: lib/crypto/aes against this OpenSSL path, %u cases (AES-128/192/256 "
	       "x ecb cbc cfb128 ofb ctr, encrypt and decrypt): %s\n",
	       cases, bad ? "FAILED" : "ok");
	return (int)bad;
}

/* ---- the figures ---- */

static void header(const char *ours_name, const char *theirs_name)
{
	printf("  %-12s %14s %16s %8s %8s\n", "aes-128", ours_name, theirs_name, "ratio",
	       "target");
}

static void row(const char *what, double ours, double theirs, double target)
{
	printf("  %-12s %14.2f %16.2f %8.3f %5s%.2f\n", what, ours, theirs, ours / theirs,
	       "<= ", target);
}

/*
 * Runs in a re-executed child with OPENSSL_ia32cap set by the parent;
 * what names the figure set.
 */
static int software_half(const char *what)
{
	enum { OURS, EVP, DIRECT, NT };
	struct ours o = { 0 };
	struct direct d = { 0 };
	struct timed cbc[NT], ecb[NT];
	EVP_CIPHER_CTX *xc, *xe;
	const char *mask = getenv(IA32CAP_VAR);
	int bad, path_ok, i;

	printf("\n[software: %s] OpenSSL with %s=%s\n", what, IA32CAP_VAR,
	       mask ? mask : "(unset!)");
	bad = crosscheck();

	aes_set_key(&o.ctx, bench_key, sizeof(bench_key));
	AES_set_encrypt_key(bench_key, 128, &d.key);
	xc = evp_new(EVP_aes_128_cbc());
	xe = evp_new(EVP_aes_128_ecb());
	cbc[OURS] = (struct timed){ ours_cbc, &o, 0 };
	cbc[EVP] = (struct timed){ evp_run, xc, 0 };
	cbc[DIRECT] = (struct timed){ direct_cbc, &d, 0 };
	ecb[OURS] = (struct timed){ ours_ecb, &o, 0 };
	ecb[EVP] = (struct timed){ evp_run, xe, 0 };
	ecb[DIRECT] = (struct timed){ direct_ecb, &d, 0 };
	measure(cbc, NT);
	measure(ecb, NT);

	header("lib/crypto/aes", "openssl-table");
	row("cbc-encrypt", cbc[OURS].tpb, cbc[EVP].tpb, SOFT_TARGET);
	row("ecb-encrypt", ecb[OURS].tpb, ecb[EVP].tpb, SOFT_TARGET);

	path_ok = 1;
	for (i = 0; i < 2; i++) {
		const struct timed *t = i ? ecb : cbc;

		if (t[EVP].tpb > PATH_SLACK * t[DIRECT].tpb ||
		    t[DIRECT].tpb > PATH_SLACK * t[EVP].tpb)
			path_ok = 0;
	}
	printf("  path check: OpenSSL table code called directly (AES_cbc_encrypt, "
	       "AES_encrypt): cbc %.2f ecb %.2f: %s\n", cbc[DIRECT].tpb, ecb[DIRECT].tpb,
	       path_ok ? "EVP runs the table code" :
			 "WARNING: EVP does not run like the table code; mask not effective?");

	EVP_CIPHER_CTX_free(xc);
	EVP_CIPHER_CTX_free(xe);
	aes_wipe(&o.ctx);
	return bad ? 1 : 0;
}

/* The host CPU through the real CPUID instruction, for lib/platform/cpuid.c. */
/*
 * drivers/aesni against lib/crypto/aes (itself checked against OpenSSL): ECB, CBC
 * and CTR, both directions, every key size, random data. Returns the
 * number of mismatches.
 */
static int aesni_crosscheck(void)
{
	static uint8_t pt[1040], o1[1040], o2[1040];
	uint8_t key[32], iv0[16], iv1[16], iv2[16];
	struct aesni_key enc, dec;
	struct aes_ctx c;
	unsigned kb, t, m, cases = 0, bad = 0;

	rng_state = CROSS_SEED ^ 1;
	for (kb = 16; kb <= 32; kb += 8) {
		for (t = 0; t < CROSS_TRIALS; t++) {
			size_t len = 16 * (rng() % 65), n;

			rng_fill(key, kb);
			rng_fill(iv0, 16);
			rng_fill(pt, sizeof(pt));
			if (aes_set_key(&c, key, kb) || aesni_expand_key(&enc, &dec, key, kb * 8)) {
				printf("  aesni crosscheck: key setup failed\n");
				return 1;
			}
			for (m = 0; m < 6; m++) {
				n = m >= 4 ? len + rng() % 16 : len;	/* CTR: partial */
				memcpy(iv1, iv0, 16);
				memcpy(iv2, iv0, 16);
				switch (m) {
				case 0:
					aes_ecb_encrypt(&c, pt, o1, n);
					aesni_ecb_encrypt(&enc, pt, o2, n);
					break;
				case 1:
					aes_ecb_decrypt(&c, pt, o1, n);
					aesni_ecb_decrypt(&dec, pt, o2, n);
					break;
				case 2:
					aes_cbc_encrypt(&c, iv1, pt, o1, n);
					aesni_cbc_encrypt(&enc, iv2, pt, o2, n);
					break;
				case 3:
					aes_cbc_decrypt(&c, iv1, pt, o1, n);
					aesni_cbc_decrypt(&dec, iv2, pt, o2, n);
					break;
				default:
					aes_ctr(&c, iv1, pt, o1, n);
					aesni_ctr(&enc, iv2, pt, o2, n);
					break;
				}
				cases++;
				if (memcmp(o1, o2, n) != 0 || memcmp(iv1, iv2, 16) != 0) {
					printf("  aesni crosscheck: MISMATCH aes-%u case %u len %zu\n",
					       kb * 8, m, n);
					bad++;
				}
			}
		}
	}
	aes_wipe(&c);
	aesni_wipe_key(&enc);
	aesni_wipe_key(&dec);
	printf("  aesni crosscheck: drivers/aesni against lib/crypto/aes, %u cases (AES-128/192/256 "
	       "x ecb cbc ctr, encrypt and decrypt): %s\n", cases, bad ? "FAILED" : "ok");
	return (int)bad;
}

/* Runs in the parent, on OpenSSL's default (AES-NI) path. */
static int aesni_half(void)
{
	enum { OURS, EVP, NT };
	struct timed cbc[NT], ecb[NT];
	struct cpu_info cpu;
	struct ni ni = { 0 };
	EVP_CIPHER_CTX *xc, *xe;
	const char *mask = getenv(IA32CAP_VAR), *absent;
	int bad;

	printf("\n[aes-ni] OpenSSL default path (%s %s)\n", IA32CAP_VAR, mask ? mask : "unset");
	bad = crosscheck();
	cpuid_decode(&cpu, host_cpuid, NULL);
	absent = aesni_absent_reason(&cpu);
	if (absent) {
		printf("  aesni: not measured: %s\n", absent);
		return bad ? 1 : 0;
	}
	bad += aesni_crosscheck();

	if (aesni_expand_key(&ni.enc, NULL, bench_key, 128) != 0) {
		printf("  aesni: aesni_expand_key failed\n");
		return 1;
	}
	xc = evp_new(EVP_aes_128_cbc());
	xe = evp_new(EVP_aes_128_ecb());
	cbc[OURS] = (struct timed){ ni_cbc, &ni, 0 };
	cbc[EVP] = (struct timed){ evp_run, xc, 0 };
	ecb[OURS] = (struct timed){ ni_ecb, &ni, 0 };
	ecb[EVP] = (struct timed){ evp_run, xe, 0 };
	measure(cbc, NT);
	measure(ecb, NT);
	header("drivers/aesni", "openssl-aesni");
	row("cbc-encrypt", cbc[OURS].tpb, cbc[EVP].tpb, AESNI_TARGET);
	row("ecb-encrypt", ecb[OURS].tpb, ecb[EVP].tpb, AESNI_TARGET);
	EVP_CIPHER_CTX_free(xc);
	EVP_CIPHER_CTX_free(xe);
	aesni_wipe_key(&ni.enc);
	return bad ? 1 : 0;
}

/*
 * Re-executes this program with OPENSSL_ia32cap=mask to print the software
 * figures named what; returns its exit status.
 */
static int run_masked_child(const char *mask, const char *what)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("bench-host: fork");
		return 1;
	}
	if (pid == 0) {
		char *args[] = { "bench-host", MASKED_ARG, (char *)what, NULL };

		setenv(IA32CAP_VAR, mask, 1);
		execv("/proc/self/exe", args);
		perror("bench-host: execv /proc/self/exe");
		_exit(1);
	}
	if (waitpid(pid, &st, 0) != pid) {
		perror("bench-host: waitpid");
		return 1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(int argc, char **argv)
{
	size_t i;
	int bad;

	for (i = 0; i < BUF_BYTES; i++)
		buf_in[i] = (uint8_t)(i * 7 + 1);
	if (argc == 3 && strcmp(argv[1], MASKED_ARG) == 0)
		return software_half(argv[2]);
	if (argc != 1) {
		fprintf(stderr, "usage: bench-host\n");
		return 2;
	}
	printf("bench-host: AES-128, %d-byte buffers, best of %d runs, TSC ticks per byte "
	       "(lower is faster); ratio = ours / OpenSSL\n", BUF_BYTES, REPS);
	printf("OpenSSL: %s\n", OpenSSL_version(OPENSSL_VERSION));
	bad = run_masked_child(SOFT_MASK, "AES-NI and SSSE3 masked, bits 57 and 41");
	bad |= run_masked_child(SOFT_MASK_NOCT, "bit 28 too: OpenSSL without cache-timing "
				"countermeasures, like lib/crypto/aes");
	bad |= aesni_half();
	return bad ? 1 : 0;
}
