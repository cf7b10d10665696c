/*
 * padlock_emu: the emulated VIA CPU of the host tests. See padlock_emu.h;
 * hardware facts from drivers/padlock/padlock_reg.h and its sources.
 */
#define _GNU_SOURCE
#include "padlock_emu.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "../../drivers/padlock/padlock_reg.h"
#include "../../lib/aes.h"
#include "../../lib/cpuid_dump.h"
#include "../../lib/montmul.h"
#include "../../lib/sha.h"
#include "../host/hw_host.h"

#define CR0_EM		(1u << 2)
#define CR0_TS		(1u << 3)
#define EFLAGS_USER	0x40DD5u	/* CF PF AF ZF SF TF DF OF AC: what popfl may change here */
#define DUMP_MAX_BYTES	(256 * 1024)
#define MAX_SITES	256

struct profile {
	const char *name, *alias, *cpu, *file;
	unsigned fetch_ecb, fetch_other;	/* blocks read past the input end */
	bool rng_msr;				/* has MSR 0x110B */
	bool rng_two_sources;
	bool phe_blocks;			/* PHE block mode (EAX = -1) */
	bool zhaoxin;				/* synthetic: "  Shanghai  " family 7, MSR 0x1257 */
};

/* Prefetch distances [LAES]: 2 ECB / 1 CBC blocks, Nano stepping 2: 8 / 4. */
static const struct profile profiles[EMU_PROFILES] = {
	[EMU_NEHEMIAH] = { "nehemiah", "c3", "C3 Nehemiah",
			   "CentaurHauls0000698_C5P_Nehemiah_CPUID.txt", 2, 1, true, true, false },
	[EMU_ESTHER] = { "esther", "c7", "C7 Esther",
			 "CentaurHauls00006A9_C5J_Esther_CPUID.txt", 2, 1, true, true, false },
	[EMU_ISAIAH] = { "isaiah", "nano", "Nano Isaiah",
			 "CentaurHauls00006F2_CNA_Isaiah_CPUID.txt", 8, 4, false, false, true },
	[EMU_SAMUEL2] = { "samuel2", "c3-samuel2", "C3 Samuel 2",
			  "CentaurHauls0000673_C5B_Samuel2_CPUID.txt", 0, 0, false, false, false },
	/* No Zhaoxin dump is at hand: the Nano's answers with the Zhaoxin vendor
	 * string and a family 7 signature (model 0x1B), to exercise MSR 0x1257. */
	[EMU_ZHAOXIN] = { "zhaoxin", "zx", "Zhaoxin (synthetic, from the Nano dump)",
			  "CentaurHauls00006F2_CNA_Isaiah_CPUID.txt", 8, 4, false, false, true, true },
};

#define ZHAOXIN_SIGNATURE	0x000107B0u	/* family 7, extended model 1, model 0xB */

/* Sites of pushfl; popfl in the driver (padlock_insn.h, -DPADLOCK_EMU_SITES). */
extern const uint32_t __start_padlock_reload_sites[] __attribute__((weak));
extern const uint32_t __stop_padlock_reload_sites[] __attribute__((weak));

static struct {
	char shared[512];
	const struct profile *prof;
	struct cpuid_dump dump;
	struct emu_options opt;
	uint64_t fcr, rng_msr, fcr57;
	uint32_t cr0;
	/* the ACE key cache */
	bool key_loaded;
	uint32_t cw[4];
	struct aes_ctx key;
	/* RNG */
	uint64_t rng_state;
	unsigned long xstores;
	struct emu_stats st;
	char fault[256];
	uint32_t sites[MAX_SITES];
	unsigned nsites;
	uint32_t mont_tmp[PMM_MAX_WORDS + 2];
} E;

static sigjmp_buf *guard_jb;

const char *emu_profile_name(enum emu_profile p)
{
	return (unsigned)p < EMU_PROFILES ? profiles[p].name : "?";
}

const char *emu_profile_cpu(enum emu_profile p)
{
	return (unsigned)p < EMU_PROFILES ? profiles[p].cpu : "?";
}

enum emu_profile emu_profile_by_name(const char *s)
{
	unsigned i;
	for (i = 0; i < EMU_PROFILES; i++)
		if (strcmp(s, profiles[i].name) == 0 || strcmp(s, profiles[i].alias) == 0)
			return (enum emu_profile)i;
	return EMU_PROFILES;
}

const char *emu_last_fault(void) { return E.fault; }
const struct emu_stats *emu_stats(void) { return &E.st; }
uint32_t emu_cr0(void) { return E.cr0; }
void emu_set_cr0(uint32_t v) { E.cr0 = v; }
void emu_flush_key(void) { E.key_loaded = false; }
uint64_t emu_msr_rng(void) { return E.rng_msr; }
uint64_t emu_msr_fcr(void) { return E.prof && E.prof->zhaoxin ? E.fcr57 : E.fcr; }

/* ---- exceptions ---- */

static const char *exc_name(int exc)
{
	static const char *const names[] = { "none", "#UD", "#GP", "#NM", "#PF" };
	return (unsigned)exc < sizeof(names) / sizeof(names[0]) ? names[exc] : "?";
}

static void raise_exc(int exc, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void raise_exc(int exc, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(E.fault, sizeof(E.fault), "%s: ", exc_name(exc));
	va_start(ap, fmt);
	vsnprintf(E.fault + n, sizeof(E.fault) - (size_t)n, fmt, ap);
	va_end(ap);
	E.st.faults++;
	if (guard_jb)
		siglongjmp(*guard_jb, exc);
	fprintf(stderr, "padlock-emu: unguarded %s\n", E.fault);
	abort();
}

int emu_guard(void (*fn)(void *ctx), void *ctx)
{
	sigjmp_buf jb, *prev = guard_jb;
	volatile int exc;

	E.fault[0] = '\0';
	exc = sigsetjmp(jb, 1);
	if (exc == 0) {
		guard_jb = &jb;
		fn(ctx);
	}
	guard_jb = prev;
	return exc;
}

static void on_sigsegv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (guard_jb) {
		snprintf(E.fault, sizeof(E.fault), "#PF: access to %p", si->si_addr);
		E.st.faults++;
		siglongjmp(*guard_jb, EMU_EXC_PF);
	}
	signal(sig, SIG_DFL);	/* return: the access faults again and ends the program */
}

/* ---- CPUID and MSRs ---- */

/* Leaf 0xC0000001 EDX as the model stands: enabled bits follow the MSRs. */
static uint32_t centaur_edx(uint32_t edx)
{
	if (edx & PADLOCK_EDX_ACE) {
		edx &= ~PADLOCK_EDX_ACE_EN;
		if (E.prof->zhaoxin ? (E.fcr57 & FCR57_ACE_ENABLE) : (E.fcr & FCR_ACE_ENABLE))
			edx |= PADLOCK_EDX_ACE_EN;
	}
	if (edx & PADLOCK_EDX_RNG) {
		if (E.prof->zhaoxin) {
			edx &= ~PADLOCK_EDX_RNG_EN;
			if (E.fcr57 & FCR57_RNG_ENABLE)
				edx |= PADLOCK_EDX_RNG_EN;
		} else if (E.prof->rng_msr) {
			edx &= ~PADLOCK_EDX_RNG_EN;
			if (E.rng_msr & RNG_MSR_ENABLE)
				edx |= PADLOCK_EDX_RNG_EN;
		} else if (E.opt.rng_disabled) {
			edx &= ~PADLOCK_EDX_RNG_EN;
		}
	}
	if (E.opt.phe_disabled)
		edx &= ~PADLOCK_EDX_PHE_EN;
	if (E.opt.pmm_disabled)
		edx &= ~PADLOCK_EDX_PMM_EN;
	return edx;
}

static bool emu_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	if (!cpuid_dump_query(&E.dump, leaf, subleaf, out))
		return false;
	if (leaf == PADLOCK_LEAF_FEAT)
		out->edx = centaur_edx(out->edx);
	if (E.prof->zhaoxin && leaf == 0) {
		memcpy(&out->ebx, "  Sh", 4);	/* vendor in EBX, EDX, ECX */
		memcpy(&out->edx, "angh", 4);
		memcpy(&out->ecx, "ai  ", 4);
	}
	if (E.prof->zhaoxin && leaf == 1)
		out->eax = ZHAOXIN_SIGNATURE;
	return true;
}

static bool unit_enabled(uint32_t enable_bit)
{
	struct cpuid_regs r;
	return emu_cpuid(NULL, PADLOCK_LEAF_FEAT, 0, &r) && (r.edx & enable_bit);
}

/* FCR 0x1107 on VIA family 6 parts (not the C3 Samuel 2 here: no PadLock to enable). */
static bool has_fcr(void)
{
	return E.prof != &profiles[EMU_SAMUEL2] && !E.prof->zhaoxin;
}

static int emu_rdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	(void)ctx;
	if (msr == MSR_ZHAOXIN_FCR57 && E.prof->zhaoxin) {
		*val = E.fcr57;
		return 0;
	}
	if (msr == MSR_VIA_FCR && has_fcr()) {
		*val = E.fcr;
		return 0;
	}
	if (msr == MSR_VIA_RNG && E.prof->rng_msr) {
		*val = E.rng_msr;
		return 0;
	}
	return HW_EFAULT;
}

static int emu_wrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	(void)ctx;
	if (msr == MSR_ZHAOXIN_FCR57 && E.prof->zhaoxin) {
		E.fcr57 = val;
		return 0;
	}
	if (msr == MSR_VIA_FCR && has_fcr()) {
		E.fcr = val;
		return 0;
	}
	if (msr == MSR_VIA_RNG && E.prof->rng_msr) {
		E.rng_msr = val;
		return 0;
	}
	return HW_EFAULT;
}

static bool hw_query(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	hw_cpuid(leaf, subleaf, out);
	return true;
}

void emu_cpu_info(struct cpu_info *ci)
{
	cpuid_decode(ci, hw_query, NULL);
}

int emu_select(enum emu_profile p, const struct emu_options *opt)
{
	static char text[DUMP_MAX_BYTES];
	char path[700];
	unsigned line = 0;
	size_t n;
	FILE *f;
	int rc;

	if ((unsigned)p >= EMU_PROFILES)
		return -1;
	snprintf(path, sizeof(path), "%s/data/cpuid/%s", E.shared, profiles[p].file);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "padlock-emu: cannot open %s\n", path);
		return -1;
	}
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	memset(&E.dump, 0, sizeof(E.dump));
	rc = cpuid_dump_parse(&E.dump, text, n, &line);
	if (rc != 0) {
		fprintf(stderr, "padlock-emu: %s line %u: %s\n", path, line, cpuid_dump_strerror(rc));
		return -1;
	}
	E.prof = &profiles[p];
	memset(&E.opt, 0, sizeof(E.opt));
	if (opt)
		E.opt = *opt;
	E.fcr = E.opt.ace_disabled ? 0 : FCR_ACE_ENABLE;
	E.fcr57 = (E.opt.ace_disabled ? 0 : FCR57_ACE_ENABLE) |
		  (E.opt.rng_disabled ? 0 : FCR57_RNG_ENABLE);
	E.rng_msr = E.opt.rng_msr_set ? E.opt.rng_msr
		  : (E.opt.rng_disabled ? 0 : RNG_MSR_ENABLE | RNG_MSR_SRC1 |
		     (E.prof->rng_two_sources ? RNG_MSR_SRC2 : 0));
	E.cr0 = E.opt.cr0;
	E.key_loaded = false;
	E.rng_state = 0x243F6A8885A308D3ull;	/* any fixed seed */
	E.xstores = 0;
	memset(&E.st, 0, sizeof(E.st));
	E.fault[0] = '\0';
	hw_host_reset();
	hw_host_set_cpuid(emu_cpuid, NULL);
	hw_host_set_msr(emu_rdmsr, emu_wrmsr, NULL);
	return 0;
}

/* ---- helpers ---- */

static void *ptr(greg_t r)
{
	return (void *)(uintptr_t)(uint32_t)r;
}

static void need_aligned(const char *what, greg_t r)
{
	if ((uint32_t)r & (PADLOCK_ALIGN - 1))
		raise_exc(EMU_EXC_GP, "%s at 0x%08x is not 16-byte aligned", what, (uint32_t)r);
}

static void need_unit(uint32_t enable_bit, const char *unit)
{
	if (!unit_enabled(enable_bit))
		raise_exc(EMU_EXC_UD, "%s instruction with the unit disabled (CPUID 0xC0000001)", unit);
}

static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void xor16(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
	unsigned i;
	for (i = 0; i < 16; i++)
		d[i] = a[i] ^ b[i];
}

/* ---- xcrypt ---- */

/* Loads control word and key from memory into the cache, validating them. */
static void load_key(const uint32_t *cw_mem, const uint8_t *key_mem)
{
	uint8_t buf[PADLOCK_KEYBUF_BYTES];
	uint32_t cw = cw_mem[0], ksize, rounds, i;
	uint32_t alg_bad = E.prof == &profiles[EMU_NEHEMIAH] ? CW_ALG_MASK : (CW_ALG_MASK & ~0x20u);

	if (cw_mem[1] || cw_mem[2] || cw_mem[3])
		raise_exc(EMU_EXC_GP, "control word bits 127:32 not zero");
	ksize = (cw & CW_KSIZE_MASK) >> CW_KSIZE_SHIFT;
	rounds = cw & CW_ROUNDS_MASK;
	if ((cw & CW_RESERVED) || (cw & alg_bad) || (cw & CW_INTERM) || ksize > 2 ||
	    rounds != 10 + 2 * ksize)
		raise_exc(EMU_EXC_GP, "undefined control word 0x%08x", cw);
	memcpy(buf, key_mem, sizeof(buf));	/* the unit reads 16 x 16 bytes */
	memset(&E.key, 0, sizeof(E.key));
	if (!(cw & CW_KEYGN)) {
		if (ksize != 0)
			raise_exc(EMU_EXC_GP, "hardware key expansion asked for a %u-bit key",
				  128 + 64 * ksize);
		aes_set_key(&E.key, buf, 16);
	} else {
		/* A software schedule in natural byte order serves both ways:
		 * as the cipher's schedule and as the inverse cipher's. */
		for (i = 0; i < 4 * (rounds + 1); i++)
			E.key.ek[i] = E.key.dk[i] = load_le32(buf + 4 * i);
		E.key.rounds = rounds;
		E.key.key_bits = 128 + 64 * ksize;
	}
	memcpy(E.cw, cw_mem, sizeof(E.cw));
	E.key_loaded = true;
	E.st.key_loads++;
}

static void cipher(bool inverse, const uint8_t in[16], uint8_t out[16])
{
	if (inverse)
		aes_decrypt_block(&E.key, in, out);
	else
		aes_encrypt_block(&E.key, in, out);
}

static void ctr_inc32(uint8_t c[16])
{
	int i;
	for (i = 15; i >= 12; i--)
		if (++c[i] != 0)
			break;
}

static void emu_xcrypt(greg_t *g, uint8_t modrm)
{
	enum aes_mode_emu { ECB, CBC, CTR, CFB, OFB } mode;
	const uint8_t *in = ptr(g[REG_ESI]);
	uint8_t *out = ptr(g[REG_EDI]);
	uint8_t *ivp = ptr(g[REG_EAX]);
	uint32_t n = (uint32_t)g[REG_ECX], i;
	uint8_t iv[16], x[16], y[16], ks[16];
	size_t fetch;
	bool dec;

	switch (modrm) {
	case PADLOCK_MODRM_ECB: mode = ECB; break;
	case PADLOCK_MODRM_CBC: mode = CBC; break;
	case PADLOCK_MODRM_CTR: mode = CTR; break;
	case PADLOCK_MODRM_CFB: mode = CFB; break;
	default: mode = OFB; break;
	}
	need_unit(PADLOCK_EDX_ACE_EN, "xcrypt");
	if (mode == CTR)
		need_unit(PADLOCK_EDX_ACE2_EN, "xcrypt-ctr (ACE2)");
	if (n == 0)
		return;		/* rep with ECX = 0 does nothing */
	need_aligned("control word (EDX)", g[REG_EDX]);
	need_aligned("key (EBX)", g[REG_EBX]);
	need_aligned("source (ESI)", g[REG_ESI]);
	need_aligned("destination (EDI)", g[REG_EDI]);
	if (mode != ECB)
		need_aligned("IV (EAX)", g[REG_EAX]);
	E.st.xcrypt++;
	if (!E.key_loaded)
		load_key(ptr(g[REG_EDX]), ptr(g[REG_EBX]));
	dec = (E.cw[0] & CW_DECRYPT) != 0;

	/* The prefetch: read past the end of the input before anything else. */
	fetch = 16u * (mode == ECB ? E.prof->fetch_ecb : E.prof->fetch_other);
	if (fetch) {
		const volatile uint8_t *end = in + (size_t)n * 16;
		(void)end[0];
		(void)end[fetch - 1];
		E.st.overread_bytes += fetch;
	}
	if (mode != ECB)
		memcpy(iv, ivp, 16);
	for (i = 0; i < n; i++) {
		memcpy(x, in + 16 * i, 16);
		switch (mode) {
		case ECB:
			cipher(dec, x, y);
			break;
		case CBC:
			if (dec) {
				cipher(true, x, y);
				xor16(y, y, iv);
				memcpy(iv, x, 16);
			} else {
				xor16(x, x, iv);
				cipher(false, x, y);
				memcpy(iv, y, 16);
			}
			break;
		case CFB:	/* the forward cipher both ways; the bit picks the feedback */
			cipher(false, iv, ks);
			xor16(y, x, ks);
			memcpy(iv, dec ? x : y, 16);
			break;
		case OFB:	/* with the decrypt bit set the unit runs the inverse cipher */
			cipher(dec, iv, ks);
			memcpy(iv, ks, 16);
			xor16(y, x, ks);
			break;
		case CTR:
			cipher(dec, iv, ks);
			ctr_inc32(iv);
			xor16(y, x, ks);
			break;
		}
		memcpy(out + 16 * i, y, 16);
	}
	g[REG_ESI] = (greg_t)((uint32_t)g[REG_ESI] + 16 * n);
	g[REG_EDI] = (greg_t)((uint32_t)g[REG_EDI] + 16 * n);
	g[REG_ECX] = 0;
	if (mode == CBC && !dec)
		g[REG_EAX] = (greg_t)((uint32_t)(uintptr_t)out + 16 * (n - 1));	/* next IV */
	else if (mode != ECB)
		memcpy(ivp, iv, 16);
}

/* ---- xstore ---- */

static uint64_t rng_next(void)
{
	/* SplitMix64 (Steele, Lea, Flood 2014): deterministic test data */
	uint64_t z = (E.rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void emu_xstore(greg_t *g)
{
	uint8_t *dst = ptr(g[REG_EDI]);
	uint32_t divisor = (uint32_t)g[REG_EDX] & 3, count = XSTORE_UNIT_BYTES >> divisor;
	uint32_t status = E.prof->rng_msr ? (uint32_t)E.rng_msr & ~XSTORE_COUNT_MASK : XSTORE_ENABLED;
	uint64_t v;
	unsigned i;

	need_unit(PADLOCK_EDX_RNG_EN, "xstore");
	E.st.xstore++;
	E.xstores++;
	if (E.opt.rng_stuck || (E.opt.rng_empty_every && E.xstores % E.opt.rng_empty_every == 0)) {
		E.st.xstore_empty++;
		g[REG_EAX] = (greg_t)status;
		return;
	}
	v = rng_next();
	for (i = 0; i < XSTORE_UNIT_BYTES; i++)	/* always a whole 8-byte unit */
		dst[i] = (uint8_t)(v >> (8 * i));
	g[REG_EDI] = (greg_t)((uint32_t)g[REG_EDI] + count);
	g[REG_EAX] = (greg_t)(status | count);
}

/* ---- xsha1 / xsha256 ---- */

static void emu_xsha(greg_t *g, bool sha256)
{
	uint32_t *state = ptr(g[REG_EDI]);
	const uint8_t *msg = ptr(g[REG_ESI]);
	uint32_t eax = (uint32_t)g[REG_EAX], ecx = (uint32_t)g[REG_ECX];
	unsigned words = sha256 ? 8 : 5, i;
	uint32_t h[8], rem, left, full;
	uint8_t tail[128];
	uint64_t bits;

	need_unit(PADLOCK_EDX_PHE_EN, sha256 ? "xsha256" : "xsha1");
	need_aligned("hash state (EDI)", g[REG_EDI]);
	E.st.xsha++;
	memcpy(h, state, words * 4);
	if (eax == PHE_BLOCK_MODE) {
		if (!E.prof->phe_blocks)
			raise_exc(EMU_EXC_GP, "PHE block mode (EAX = -1) on the %s", E.prof->cpu);
		if (sha256)
			sha256_blocks(h, msg, ecx);
		else
			sha1_blocks(h, msg, ecx);
		g[REG_ESI] = (greg_t)((uint32_t)g[REG_ESI] + 64 * ecx);
		g[REG_ECX] = 0;
	} else {
		if (eax % 64 || eax > ecx)
			raise_exc(EMU_EXC_GP, "one-shot xsha with EAX = %u (bytes done) and ECX = %u",
				  eax, ecx);
		left = ecx - eax;
		full = left / 64;
		rem = left % 64;
		if (sha256)
			sha256_blocks(h, msg, full);
		else
			sha1_blocks(h, msg, full);
		memset(tail, 0, sizeof(tail));
		memcpy(tail, msg + 64 * full, rem);
		tail[rem] = 0x80;
		bits = (uint64_t)ecx * 8;
		full = rem < 56 ? 1 : 2;
		for (i = 0; i < 8; i++)
			tail[64 * full - 1 - i] = (uint8_t)(bits >> (8 * i));
		if (sha256)
			sha256_blocks(h, tail, full);
		else
			sha1_blocks(h, tail, full);
		g[REG_ESI] = (greg_t)((uint32_t)g[REG_ESI] + left);
		g[REG_EAX] = (greg_t)ecx;
		g[REG_ECX] = 0;
	}
	memcpy(state, h, words * 4);
	/* The microcode works in the rest of the 128-byte buffer. */
	for (i = words; i < PHE_STATE_BYTES / 4; i++)
		state[i] = 0xA5A5A5A5u ^ i;
}

/* ---- montmul ---- */

static void need_zero_pad(const char *what, const uint32_t *v, unsigned words)
{
	unsigned i;
	for (i = 0; i < PMM_PAD_WORDS; i++)
		if (v[words + i])
			raise_exc(EMU_EXC_GP, "montmul %s: the 16 bytes after the vector are not zero",
				  what);
}

static void emu_montmul(greg_t *g)
{
	const uint32_t *p = ptr(g[REG_ESI]);
	uint32_t bits = (uint32_t)g[REG_ECX], words = bits / 32, i;
	const uint32_t *a, *b, *m;
	uint32_t *t;
	uint8_t *scratch;

	need_unit(PADLOCK_EDX_PMM_EN, "montmul");
	if ((uint32_t)g[REG_EAX] != 0)
		raise_exc(EMU_EXC_GP, "montmul with EAX = 0x%08x (must be 0)", (uint32_t)g[REG_EAX]);
	if (bits % (32 * PMM_WORD_MULTIPLE) || words < PMM_MIN_WORDS || words > PMM_MAX_WORDS)
		raise_exc(EMU_EXC_GP, "montmul with ECX = %u bits", bits);
	a = ptr(p[1]);
	b = ptr(p[2]);
	t = ptr(p[3]);
	m = ptr(p[4]);
	scratch = ptr(p[5]);
	need_aligned("montmul A", p[1]);
	need_aligned("montmul B", p[2]);
	need_aligned("montmul T", p[3]);
	need_aligned("montmul M", p[4]);
	need_zero_pad("A", a, words);
	need_zero_pad("B", b, words);
	need_zero_pad("M", m, words);
	E.st.montmul++;
	montmul_raw(E.mont_tmp, a, b, m, p[0], words);
	for (i = 0; i <= words; i++)
		t[i] = E.mont_tmp[i];
	for (i = 0; i < PMM_SCRATCH_BYTES; i++)
		scratch[i] = (uint8_t)(0x5A ^ i);
	g[REG_ECX] = 0;
}

/* ---- the handlers ---- */

static void on_sigill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	const uint8_t *ip = ptr(g[REG_EIP]);
	unsigned rep = ip[0] == PADLOCK_OP_REP, len = rep + 3;
	const uint8_t *op = ip + rep;

	(void)sig;
	(void)si;
	if (op[0] != PADLOCK_OP_0F || (op[1] != PADLOCK_OP_GRP_A6 && op[1] != PADLOCK_OP_GRP_A7))
		raise_exc(EMU_EXC_UD, "not a PadLock instruction at 0x%08x: %02x %02x %02x %02x",
			  (uint32_t)g[REG_EIP], ip[0], ip[1], ip[2], ip[3]);
	if (E.cr0 & (CR0_TS | CR0_EM))
		raise_exc(EMU_EXC_NM, "PadLock instruction with CR0.TS or CR0.EM set (CR0 = 0x%08x)",
			  E.cr0);
	if (op[1] == PADLOCK_OP_GRP_A7 && op[2] == PADLOCK_MODRM_XSTORE && !rep)
		emu_xstore(g);
	else if (op[1] == PADLOCK_OP_GRP_A7 && rep &&
		 (op[2] == PADLOCK_MODRM_ECB || op[2] == PADLOCK_MODRM_CBC ||
		  op[2] == PADLOCK_MODRM_CTR || op[2] == PADLOCK_MODRM_CFB ||
		  op[2] == PADLOCK_MODRM_OFB))
		emu_xcrypt(g, op[2]);
	else if (op[1] == PADLOCK_OP_GRP_A6 && rep && op[2] == PADLOCK_MODRM_XSHA1)
		emu_xsha(g, false);
	else if (op[1] == PADLOCK_OP_GRP_A6 && rep && op[2] == PADLOCK_MODRM_XSHA256)
		emu_xsha(g, true);
	else if (op[1] == PADLOCK_OP_GRP_A6 && rep && op[2] == PADLOCK_MODRM_MONTMUL)
		emu_montmul(g);
	else
		raise_exc(EMU_EXC_UD, "PadLock form not emulated: %02x %02x %02x %02x",
			  ip[0], ip[1], ip[2], ip[3]);
	g[REG_EIP] = (greg_t)((uint32_t)g[REG_EIP] + len);
}

/* int3 at a reload site's popfl: perform the popfl, drop the key cache. */
static void on_sigtrap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	uint32_t at = (uint32_t)g[REG_EIP] - 1, v;
	unsigned i;

	(void)si;
	for (i = 0; i < E.nsites; i++)
		if (E.sites[i] + 1 == at)
			break;
	if (i == E.nsites) {
		fprintf(stderr, "padlock-emu: SIGTRAP at 0x%08x is no reload site\n", at);
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	memcpy(&v, ptr(g[REG_ESP]), 4);
	g[REG_ESP] = (greg_t)((uint32_t)g[REG_ESP] + 4);
	g[REG_EFL] = (greg_t)(((uint32_t)g[REG_EFL] & ~EFLAGS_USER) | (v & EFLAGS_USER));
	E.key_loaded = false;
	E.st.reloads++;
}

static int patch_sites(void)
{
	const uint32_t *s;
	long page = sysconf(_SC_PAGESIZE);

	E.nsites = 0;
	if (!__start_padlock_reload_sites)
		return 0;
	for (s = __start_padlock_reload_sites; s < __stop_padlock_reload_sites; s++) {
		uint8_t *code = ptr(*s);
		uintptr_t base = (uintptr_t)code & ~(uintptr_t)(page - 1);
		size_t span = (((uintptr_t)code + 2 + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1)) - base;
		if (E.nsites == MAX_SITES)
			return -1;
		if (code[0] != 0x9C || code[1] != 0x9D) {	/* pushfl; popfl */
			fprintf(stderr, "padlock-emu: reload site %p holds %02x %02x, not pushfl; popfl\n",
				(void *)code, code[0], code[1]);
			return -1;
		}
		if (mprotect((void *)base, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
			return -1;
		code[1] = 0xCC;		/* int3 */
		mprotect((void *)base, span, PROT_READ | PROT_EXEC);
		E.sites[E.nsites++] = *s;
	}
	return (int)E.nsites;
}

int emu_init(const char *shared)
{
	struct sigaction sa;

	snprintf(E.shared, sizeof(E.shared), "%s", shared);
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_sigill;
	if (sigaction(SIGILL, &sa, NULL) != 0)
		return -1;
	sa.sa_sigaction = on_sigtrap;
	if (sigaction(SIGTRAP, &sa, NULL) != 0)
		return -1;
	sa.sa_sigaction = on_sigsegv;
	if (sigaction(SIGSEGV, &sa, NULL) != 0)
		return -1;
	return patch_sites();
}
