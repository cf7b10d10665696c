/*
 * ossl_padlock_test: a third-party caller on the PadLock model. Debian's
 * i386 OpenSSL 3 PadLock engine (engines-3/padlock.so of libssl3:i386,
 * extracted into the build folder by tests/drivers/padlock/ossl-padlock.t,
 * never installed or committed) runs its own rep xcrypt code on the
 * instruction emulator (padlock_emu.c, SIGILL under qemu-i386), and every
 * result is compared with OpenSSL's software AES from the same libcrypto.
 *
 * The engine's own CPU checks are made to see the emulated CPU: the .t
 * finds its cpuid, pushfl and popfl instructions with objdump and passes
 * their offsets (CQ_OSSL_CPUID, CQ_OSSL_PUSHF, CQ_OSSL_POPF, hex, comma
 * separated); they are patched to traps (emu_patch_site): cpuid answers
 * from the profile, popfl drops the key cache, pushfl shows the model's
 * EFLAGS bit 30, which OpenSSL's padlock_verify_context tests before it
 * forces a reload.
 *
 * libcrypto is opened with dlopen (CQ_OSSL_LIBCRYPTO) so this program
 * builds without the package; the OpenSSL 3 functions it calls are
 * declared here from their documented prototypes (EVP_EncryptInit(3),
 * ENGINE_add(3)).
 *
 * For each profile (CQ_OSSL_PROFILES, default nehemiah esther isaiah
 * zhaoxin): every mode the engine offers (ECB, CBC, CFB, OFB, CTR) at
 * 128/192/256 bits, both directions, 16 B to 8 KiB, split updates,
 * misaligned buffers, two contexts interleaved, input ending at an unmapped
 * page. CQ_OSSL_STRICT=1 runs the model with its old strict checks (not
 * documented behaviour), under which this test is expected to fail.
 *
 * Prints TAP version 13.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tests/drivers/padlock/emu_tap.h"
#include "tests/drivers/padlock/padlock_emu.h"

#define PAGE		4096
#define MAX_LEN		8192

/* ---- OpenSSL 3, through dlsym ---- */

typedef struct engine_st ENGINE;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;

static struct {
	ENGINE *(*engine_by_id)(const char *id);
	int (*engine_init)(ENGINE *e);
	const EVP_CIPHER *(*engine_get_cipher)(ENGINE *e, int nid);
	const EVP_CIPHER *(*get_cipherbyname)(const char *name);
	int (*cipher_get_nid)(const EVP_CIPHER *c);
	EVP_CIPHER_CTX *(*ctx_new)(void);
	void (*ctx_free)(EVP_CIPHER_CTX *c);
	int (*init_ex)(EVP_CIPHER_CTX *c, const EVP_CIPHER *t, ENGINE *e, const unsigned char *key,
		       const unsigned char *iv, int enc);
	int (*update)(EVP_CIPHER_CTX *c, unsigned char *out, int *outl, const unsigned char *in,
		      int inl);
	int (*final_ex)(EVP_CIPHER_CTX *c, unsigned char *out, int *outl);
	int (*set_padding)(EVP_CIPHER_CTX *c, int pad);
	void (*print_errors)(FILE *fp);
} O;

static int load_openssl(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		printf("# dlopen %s: %s\n", path, dlerror());
		return -1;
	}
#define SYM(f, n) if (!(*(void **)&O.f = dlsym(h, n))) { printf("# no %s in %s\n", n, path); return -1; }
	SYM(engine_by_id, "ENGINE_by_id");
	SYM(engine_init, "ENGINE_init");
	SYM(engine_get_cipher, "ENGINE_get_cipher");
	SYM(get_cipherbyname, "EVP_get_cipherbyname");
	SYM(cipher_get_nid, "EVP_CIPHER_get_nid");
	SYM(ctx_new, "EVP_CIPHER_CTX_new");
	SYM(ctx_free, "EVP_CIPHER_CTX_free");
	SYM(init_ex, "EVP_CipherInit_ex");
	SYM(update, "EVP_CipherUpdate");
	SYM(final_ex, "EVP_CipherFinal_ex");
	SYM(set_padding, "EVP_CIPHER_CTX_set_padding");
	SYM(print_errors, "ERR_print_errors_fp");
#undef SYM
	return 0;
}

/* Patches the engine's sites listed in env var (hex offsets from its load base). */
static int patch_list(uintptr_t base, const char *env, enum emu_site kind)
{
	const char *s = getenv(env);
	char *end;
	int n = 0;

	while (s && *s) {
		unsigned long off = strtoul(s, &end, 16);
		if (end == s)
			break;
		if (emu_patch_site((void *)(base + off), kind) != 0) {
			printf("# %s: offset 0x%lx is not the instruction objdump named\n", env, off);
			return -1;
		}
		n++;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* ---- the cases ---- */

static const char *const modes[] = { "ecb", "cbc", "cfb", "ofb", "ctr" };
static const unsigned key_bits[] = { 128, 192, 256 };
static const size_t lens[] = { 16, 32, 48, 64, 80, 128, 272, 1024, 4096, 4112, 8192 };

static ENGINE *eng;
static uint8_t *guarded;		/* two pages, the second PROT_NONE */
static uint8_t in_buf[MAX_LEN + 64] __attribute__((aligned(64)));
static uint8_t out_buf[MAX_LEN + 64] __attribute__((aligned(64)));
static uint8_t ref_buf[MAX_LEN + 64] __attribute__((aligned(64)));
static uint8_t ref2_buf[MAX_LEN + 64] __attribute__((aligned(64)));
static uint8_t out2_buf[MAX_LEN + 64] __attribute__((aligned(64)));

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	size_t i;
	uint32_t x = seed * 2654435761u + 1;
	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16);
	}
}

/* in -> out through impl (NULL: software) in pieces of split bytes (0: one update). */
static int run_cipher(const EVP_CIPHER *c, ENGINE *impl, int enc, const uint8_t *key,
		      const uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len, size_t split)
{
	EVP_CIPHER_CTX *x = O.ctx_new();
	int outl, total = 0, ok;
	size_t done = 0, n;

	ok = x && O.init_ex(x, c, impl, key, iv, enc) == 1 && O.set_padding(x, 0) == 1;
	while (ok && done < len) {
		n = split && len - done > split ? split : len - done;
		ok = O.update(x, out + total, &outl, in + done, (int)n) == 1;
		total += outl;
		done += n;
	}
	ok = ok && O.final_ex(x, out + total, &outl) == 1;
	total += ok ? outl : 0;
	O.ctx_free(x);
	return ok && (size_t)total == len ? 0 : -1;
}

struct one_case {
	const EVP_CIPHER *c;
	int enc;
	const uint8_t *key, *iv;
	const uint8_t *in;
	uint8_t *out;
	size_t len, split;
	int rc;
};

static void case_run(void *ctx)
{
	struct one_case *k = ctx;
	k->rc = run_cipher(k->c, eng, k->enc, k->key, k->iv, k->in, k->out, k->len, k->split);
}

/* Runs one engine case under the emulator's guard; compares with software. */
static bool check(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv,
		  const uint8_t *in, uint8_t *out, size_t len, size_t split, char *why, size_t cap)
{
	struct one_case k = { c, enc, key, iv, in, out, len, split, -1 };
	int exc;

	if (run_cipher(c, NULL, enc, key, iv, in, ref_buf, len, 0) != 0) {
		snprintf(why, cap, "software reference failed");
		return false;
	}
	memset(out, 0, len);
	exc = emu_guard(case_run, &k);
	if (exc != EMU_EXC_NONE) {
		snprintf(why, cap, "exception %s", emu_last_fault());
		return false;
	}
	if (k.rc != 0) {
		snprintf(why, cap, "EVP call failed");
		return false;
	}
	if (memcmp(out, ref_buf, len) != 0) {
		snprintf(why, cap, "output differs from software");
		return false;
	}
	return true;
}

struct pair_case {
	const EVP_CIPHER *c;
	int enc;
	const uint8_t *ka, *kb, *iv;
	size_t len;
	int rc;
};

/* Two contexts with different keys, their updates alternating in 48-byte steps. */
static void pair_run(void *ctx)
{
	struct pair_case *p = ctx;
	EVP_CIPHER_CTX *a = O.ctx_new(), *b = O.ctx_new();
	int outl, ta = 0, tb = 0, ok;
	size_t done = 0, n;

	ok = a && b && O.init_ex(a, p->c, eng, p->ka, p->iv, p->enc) == 1 &&
	     O.init_ex(b, p->c, eng, p->kb, p->iv, p->enc) == 1 && O.set_padding(a, 0) == 1 &&
	     O.set_padding(b, 0) == 1;
	while (ok && done < p->len) {
		n = p->len - done > 48 ? 48 : p->len - done;
		ok = O.update(a, out_buf + ta, &outl, in_buf + done, (int)n) == 1;
		ta += outl;
		ok = ok && O.update(b, out2_buf + tb, &outl, in_buf + done, (int)n) == 1;
		tb += outl;
		done += n;
	}
	ok = ok && O.final_ex(a, out_buf + ta, &outl) == 1 && O.final_ex(b, out2_buf + tb, &outl) == 1;
	O.ctx_free(a);
	O.ctx_free(b);
	p->rc = ok ? 0 : -1;
}

static void test_profile(enum emu_profile p, bool strict)
{
	static const uint8_t key_a[32] = "third-party caller key A ......";
	static const uint8_t key_b[32] = "another key for context B .....";
	static const uint8_t iv[16] = "IV for OpenSSL!";
	const char *pn = emu_profile_name(p);
	struct emu_options o;
	unsigned m, k, d, l, offered = 0;
	unsigned long xc0;
	char name[32], why[160];

	memset(&o, 0, sizeof(o));
	o.model.strict = strict;
	if (emu_select(p, &o) != 0) {
		t_ok(false, "%s: profile loads", pn);
		return;
	}
	for (m = 0; m < 5; m++)
		for (k = 0; k < 3; k++) {
			const EVP_CIPHER *c;
			unsigned runs = 0, bad = 0, split_bad = 0, mis_bad = 0, pair_bad = 0, page_bad = 0;
			char first[400] = "";

			snprintf(name, sizeof(name), "aes-%u-%s", key_bits[k], modes[m]);
			c = O.get_cipherbyname(name);
			if (!c || !O.engine_get_cipher(eng, O.cipher_get_nid(c))) {
				t_skip("the engine does not offer it", "%s: padlock engine %s", pn, name);
				continue;
			}
			offered++;
			xc0 = emu_stats()->xcrypt;
			for (d = 0; d < 2; d++) {
				for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
					size_t n = lens[l];
					fill(in_buf, n + 32, l * 7 + d + m * 31 + k);
					runs++;
					if (!check(c, d, key_a, iv, in_buf, out_buf, n, 0, why, sizeof(why))) {
						bad++;
						if (!first[0])
							snprintf(first, sizeof(first), "%s %zu B: %s", d ? "encrypt" : "decrypt", n, why);
					}
					/* split updates: 1, 15, 33 ... byte pieces */
					runs++;
					if (!check(c, d, key_a, iv, in_buf, out_buf, n, 1 + (l * 16 + 15) % 61, why, sizeof(why))) {
						split_bad++;
						if (!first[0])
							snprintf(first, sizeof(first), "%s %zu B split: %s", d ? "encrypt" : "decrypt", n, why);
					}
					/* misaligned input and output */
					runs++;
					if (!check(c, d, key_a, iv, in_buf + 3, out_buf + 5, n, 0, why, sizeof(why))) {
						mis_bad++;
						if (!first[0])
							snprintf(first, sizeof(first), "%s %zu B misaligned: %s", d ? "encrypt" : "decrypt", n, why);
					}
				}
				/* two contexts interleaved */
				{
					struct pair_case pc = { c, (int)d, key_a, key_b, iv, 1024, -1 };
					int exc;
					fill(in_buf, 1024, 99 + d);
					run_cipher(c, NULL, d, key_a, iv, in_buf, ref_buf, 1024, 0);
					run_cipher(c, NULL, d, key_b, iv, in_buf, ref2_buf, 1024, 0);
					exc = emu_guard(pair_run, &pc);
					runs++;
					if (exc != EMU_EXC_NONE || pc.rc != 0 || memcmp(out_buf, ref_buf, 1024) != 0 ||
					    memcmp(out2_buf, ref2_buf, 1024) != 0) {
						pair_bad++;
						if (!first[0])
							snprintf(first, sizeof(first), "%s two contexts interleaved: %s",
								 d ? "encrypt" : "decrypt",
								 exc ? emu_last_fault() : pc.rc ? "EVP call failed" : "output differs from software");
					}
				}
				/* input ending at an unmapped page */
				for (l = 0; l < 3; l++) {
					size_t n = l == 0 ? 16 : l == 1 ? 80 : 4096;
					uint8_t *src = guarded + PAGE - n;
					fill(src, n, 7 + l);
					runs++;
					if (!check(c, d, key_a, iv, src, out_buf, n, 0, why, sizeof(why))) {
						page_bad++;
						if (!first[0])
							snprintf(first, sizeof(first), "%s %zu B ending at an unmapped page: %s",
								 d ? "encrypt" : "decrypt", n, why);
					}
				}
			}
			t_ok(bad + split_bad + mis_bad + pair_bad + page_bad == 0 && emu_stats()->xcrypt > xc0,
			     "%s: padlock engine %s, both directions, 16 B..8 KiB, split, misaligned, two contexts, page end: %u runs on the model (%lu xcrypt), %u+%u+%u+%u+%u differ%s%s",
			     pn, name, runs, emu_stats()->xcrypt - xc0, bad, split_bad, mis_bad, pair_bad, page_bad,
			     first[0] ? ": first " : "", first);
		}
	t_ok(offered == 15, "%s: the engine offers ECB, CBC, CFB, OFB and CTR at 128/192/256 bits (%u of 15)",
	     pn, offered);
}

int main(void)
{
	const char *shared = getenv("CQ_SHARED"), *lib = getenv("CQ_OSSL_LIBCRYPTO");
	const char *engine_so = getenv("CQ_OSSL_ENGINE"), *prof = getenv("CQ_OSSL_PROFILES");
	bool strict = getenv("CQ_OSSL_STRICT") && getenv("CQ_OSSL_STRICT")[0] == '1';
	struct link_map *lm = NULL;
	char profs[200], *tok, *save;
	void *h;
	int n1, n2, n3;

	setvbuf(stdout, NULL, _IOLBF, 0);
	t_begin();
	if (!shared || !lib || !engine_so) {
		printf("1..0 # SKIP CQ_SHARED, CQ_OSSL_LIBCRYPTO and CQ_OSSL_ENGINE must be set (ossl-padlock.t does)\n");
		return 0;
	}
	if (emu_init(shared) < 0 || load_openssl(lib) != 0) {
		t_ok(false, "emulator and %s loaded", lib);
		return t_end();
	}
	/* Load the engine's code first, patch it, then let OpenSSL bind it
	 * (the same path: dlopen returns the patched copy). */
	h = dlopen(engine_so, RTLD_NOW);
	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
		t_ok(false, "dlopen %s: %s", engine_so, dlerror());
		return t_end();
	}
	n1 = patch_list(lm->l_addr, "CQ_OSSL_CPUID", EMU_SITE_CPUID);
	n2 = patch_list(lm->l_addr, "CQ_OSSL_PUSHF", EMU_SITE_PUSHF);
	n3 = patch_list(lm->l_addr, "CQ_OSSL_POPF", EMU_SITE_POPF);
	t_ok(n1 > 0 && n2 > 0 && n3 > 0,
	     "padlock.so patched for the model: %d cpuid, %d pushfl (EFLAGS bit 30), %d popfl (reload)", n1, n2, n3);
	guarded = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guarded == MAP_FAILED || mprotect(guarded + PAGE, PAGE, PROT_NONE) != 0) {
		t_ok(false, "guard page mapped");
		return t_end();
	}
	if (strict)
		t_diag("the model runs with its old strict checks (not documented behaviour): failures expected");
	snprintf(profs, sizeof(profs), "%s", prof && prof[0] ? prof : "nehemiah esther isaiah zhaoxin");
	for (tok = strtok_r(profs, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		enum emu_profile p = emu_profile_by_name(tok);
		if (p == EMU_PROFILES) {
			t_ok(false, "profile %s exists", tok);
			continue;
		}
		/* The engine binds once, on the first profile's CPUID: each
		 * profile is a fresh program run (ossl-padlock.t). */
		emu_select(p, NULL);
		if (!eng) {
			eng = O.engine_by_id("padlock");
			if (!eng || O.engine_init(eng) != 1) {
				O.print_errors(stdout);
				t_ok(false, "%s: ENGINE_by_id(\"padlock\") %s on the emulated CPU (CPUID 0xC0000001 EDX=0x%08x)",
				     tok, eng ? "loaded, but ENGINE_init failed" : "failed",
				     emu_centaur_edx());
				return t_end();
			}
			t_ok(true, "%s: OpenSSL's padlock engine loaded and initialised on the emulated CPU", tok);
		}
		test_profile(p, strict);
	}
	return t_end();
}
