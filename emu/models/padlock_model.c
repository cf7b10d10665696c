/*
 * padlock_model: the emulated VIA CPU's PadLock units. See padlock_model.h;
 * hardware facts from drivers/padlock/padlock_reg.h and its sources.
 */
#include "emu/models/padlock_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "lib/util/fmt.h"
#include "lib/crypto/montmul.h"
#include "lib/crypto/sha.h"
#include "lib/util/splitmix64.h"

struct padlock_model_profile {
	const char *name, *alias, *cpu, *file;
	unsigned fetch_ecb, fetch_cbc;		/* the fetch group in blocks (ECB, CBC) */
	bool rng_msr;				/* has MSR 0x110B */
	bool rng_two_sources;
	bool phe_blocks;			/* PHE block mode (EAX = -1) */
	bool shanghai;				/* synthetic: "  Shanghai  ", MSR 0x1257 only */
	bool has_fcr;				/* MSR 0x1107 */
	bool unaligned_data;			/* accepts unaligned data outside ECB */
	bool zhaoxin_phe;			/* ECX = 0 no-op documented, 32-byte XSHA1 state */
};

/*
 * Fetch groups [LAES]: ECB 2 / CBC 1 blocks, Nano stepping 2: 8 / 4 (the
 * KX-7000 is given the Nano's: an assumption). Unaligned data outside ECB:
 * C7 and Nano accept it [notes: PG via Linux/OpenSSL comments], the
 * Nehemiah faults; the KX-7000 as the Nano (assumption).
 */
static const struct padlock_model_profile profiles[PADLOCK_CPUS] = {
	[PADLOCK_CPU_NEHEMIAH] = { "nehemiah", "c3", "C3 Nehemiah",
				   "CentaurHauls0000698_C5P_Nehemiah_CPUID.txt", 2, 1, true, true,
				   false, false, true, false, false },
	[PADLOCK_CPU_ESTHER] = { "esther", "c7", "C7 Esther",
				 "CentaurHauls00006A9_C5J_Esther_CPUID.txt", 2, 1, true, true, false,
				 false, true, true, false },
	[PADLOCK_CPU_ISAIAH] = { "isaiah", "nano", "Nano Isaiah",
				 "CentaurHauls00006F2_CNA_Isaiah_CPUID.txt", 8, 4, false, false, true,
				 false, true, true, false },
	[PADLOCK_CPU_SAMUEL2] = { "samuel2", "c3-samuel2", "C3 Samuel 2",
				  "CentaurHauls0000673_C5B_Samuel2_CPUID.txt", 0, 0, false, false,
				  false, false, false, false, false },
	/* The real KX-7000 dump: CentaurHauls family 7 model 0x6B. FCR 0x1107
	 * and RNG MSR 0x110B as Linux's init_c3() writes them on CentaurHauls
	 * family >= 7 (assumption: no Zhaoxin document describes them); MSR
	 * 0x1257 raises #GP here (assumption: a driver must not pick it by
	 * family). */
	[PADLOCK_CPU_ZHAOXIN] = { "zhaoxin", "kx7000", "Zhaoxin KaiXian KX-7000",
				  "CentaurHauls00607B1_KX7000_CPUID.txt", 8, 4, true, false, true,
				  false, true, true, true },
	/* Synthetic: the KX-7000's answers with the vendor "  Shanghai  ", the
	 * MSR 0x1257 of Linux's zhaoxin.c and neither 0x1107 nor 0x110B. */
	[PADLOCK_CPU_SHANGHAI] = { "shanghai", "zx", "Zhaoxin \"  Shanghai  \" (synthetic, from the KX-7000 dump)",
				   "CentaurHauls00607B1_KX7000_CPUID.txt", 8, 4, false, false, true,
				   true, false, true, true },
};

static const char *const fault_names[PADLOCK_MODEL_NFAULTS] = {
	"rng-stuck", "wrong-data", "hash-wrong", "ace-locked",
	"xstore-div0-biased", "ctr-probe-hang", "xstore-status-bits",
};

#define CR0_EM			(1u << 2)
#define CR0_TS			(1u << 3)

const char *padlock_model_cpu_name(enum padlock_model_cpu c)
{
	return (unsigned)c < PADLOCK_CPUS ? profiles[c].name : "?";
}

const char *padlock_model_cpu_desc(enum padlock_model_cpu c)
{
	return (unsigned)c < PADLOCK_CPUS ? profiles[c].cpu : "?";
}

const char *padlock_model_cpu_dump(enum padlock_model_cpu c)
{
	return (unsigned)c < PADLOCK_CPUS ? profiles[c].file : "?";
}

enum padlock_model_cpu padlock_model_cpu_by_name(const char *s)
{
	unsigned i;
	for (i = 0; i < PADLOCK_CPUS; i++)
		if (strcmp(s, profiles[i].name) == 0 || strcmp(s, profiles[i].alias) == 0)
			return (enum padlock_model_cpu)i;
	return PADLOCK_CPUS;
}

uint32_t padlock_model_fault(const char *name)
{
	unsigned i;
	for (i = 0; i < PADLOCK_MODEL_NFAULTS; i++)
		if (strcmp(name, fault_names[i]) == 0)
			return 1u << i;
	return 0;
}

const char *padlock_model_fault_name(unsigned i)
{
	return i < PADLOCK_MODEL_NFAULTS ? fault_names[i] : "?";
}

const char *padlock_model_exc_name(enum padlock_model_exc e)
{
	static const char *const names[] = { "none", "#UD", "#GP", "#NM", "#PF" };
	return (unsigned)e < sizeof(names) / sizeof(names[0]) ? names[e] : "?";
}

unsigned padlock_model_exc_vector(enum padlock_model_exc e)
{
	static const unsigned vectors[] = { 0, 6, 13, 7, 14 };
	return (unsigned)e < sizeof(vectors) / sizeof(vectors[0]) ? vectors[e] : 0;
}

/* Records why exc is raised; returns exc. */
static enum padlock_model_exc fail(struct padlock_model *m, enum padlock_model_exc exc,
				   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum padlock_model_exc fail(struct padlock_model *m, enum padlock_model_exc exc,
				   const char *fmt, ...)
{
	va_list ap;
	size_t n = fmt_snprintf(m->fault, sizeof(m->fault), "%s: ", padlock_model_exc_name(exc));
	va_start(ap, fmt);
	fmt_vsnprintf(m->fault + n, sizeof(m->fault) - n, fmt, ap);
	va_end(ap);
	m->st.faults++;
	return exc;
}

/* ---- set-up, CPUID and MSRs ---- */

int padlock_model_init(struct padlock_model *m, enum padlock_model_cpu c,
		       const struct cpuid_dump *dump, const struct padlock_model_options *opt)
{
	if ((unsigned)c >= PADLOCK_CPUS)
		return -1;
	memset(m, 0, sizeof(*m));
	m->prof = &profiles[c];
	m->dump = dump;
	if (opt)
		m->opt = *opt;
	if (m->opt.faults & PADLOCK_MODEL_FAULT_ACE_LOCKED)
		m->opt.ace_disabled = true;
	m->fcr = m->opt.ace_disabled ? 0 : FCR_ACE_ENABLE;
	m->fcr57 = (m->opt.ace_disabled ? 0 : FCR57_ACE_ENABLE) |
		   (m->opt.rng_disabled ? 0 : FCR57_RNG_ENABLE);
	m->rng_msr = m->opt.rng_msr_set ? m->opt.rng_msr
		   : (m->opt.rng_disabled ? 0 : RNG_MSR_ENABLE | RNG_MSR_SRC1 |
		      (m->prof->rng_two_sources ? RNG_MSR_SRC2 : 0));
	m->rng_state = 0x243F6A8885A308D3ull;	/* any fixed seed */
	return 0;
}

uint32_t padlock_model_centaur_edx(const struct padlock_model *m)
{
	struct cpuid_regs r;
	if (!padlock_model_cpuid((void *)m, PADLOCK_LEAF_FEAT, 0, &r))
		return 0;
	return r.edx;
}

/* Leaf 0xC0000001 EDX from the dump: enabled bits follow the MSRs. */
static uint32_t centaur_edx(const struct padlock_model *m, uint32_t edx)
{
	const struct padlock_model_profile *p = m->prof;

	if (edx & PADLOCK_EDX_ACE) {
		edx &= ~PADLOCK_EDX_ACE_EN;
		if (p->shanghai ? (m->fcr57 & FCR57_ACE_ENABLE) : (m->fcr & FCR_ACE_ENABLE))
			edx |= PADLOCK_EDX_ACE_EN;
	}
	if (edx & PADLOCK_EDX_RNG) {
		if (p->shanghai) {
			edx &= ~PADLOCK_EDX_RNG_EN;
			if (m->fcr57 & FCR57_RNG_ENABLE)
				edx |= PADLOCK_EDX_RNG_EN;
		} else if (p->rng_msr) {
			edx &= ~PADLOCK_EDX_RNG_EN;
			if (m->rng_msr & RNG_MSR_ENABLE)
				edx |= PADLOCK_EDX_RNG_EN;
		} else if (m->opt.rng_disabled) {
			edx &= ~PADLOCK_EDX_RNG_EN;
		}
	}
	if (m->opt.phe_disabled)
		edx &= ~PADLOCK_EDX_PHE_EN;
	if (m->opt.pmm_disabled)
		edx &= ~PADLOCK_EDX_PMM_EN;
	return edx;
}

bool padlock_model_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	struct padlock_model *m = ctx;

	if (!m->dump || !cpuid_dump_query((void *)m->dump, leaf, subleaf, out))
		return false;
	if (leaf == PADLOCK_LEAF_FEAT)
		out->edx = centaur_edx(m, out->edx);
	if (m->prof->shanghai && leaf == 0) {
		memcpy(&out->ebx, "  Sh", 4);	/* vendor in EBX, EDX, ECX */
		memcpy(&out->edx, "angh", 4);
		memcpy(&out->ecx, "ai  ", 4);
	}
	return true;
}

static bool unit_enabled(struct padlock_model *m, uint32_t enable_bit)
{
	return (padlock_model_centaur_edx(m) & enable_bit) != 0;
}

bool padlock_model_owns_msr(uint32_t msr)
{
	return msr == MSR_VIA_FCR || msr == MSR_VIA_RNG || msr == MSR_ZHAOXIN_FCR57;
}

int padlock_model_msr_read(void *ctx, uint32_t msr, uint64_t *val)
{
	struct padlock_model *m = ctx;

	if (msr == MSR_ZHAOXIN_FCR57 && m->prof->shanghai) {
		*val = m->fcr57;
		return 0;
	}
	if (msr == MSR_VIA_FCR && m->prof->has_fcr) {
		*val = m->fcr;
		return 0;
	}
	if (msr == MSR_VIA_RNG && m->prof->rng_msr) {
		*val = m->rng_msr;
		return 0;
	}
	return HW_EFAULT;
}

int padlock_model_msr_write(void *ctx, uint32_t msr, uint64_t val)
{
	struct padlock_model *m = ctx;
	bool locked = m->opt.faults & PADLOCK_MODEL_FAULT_ACE_LOCKED;

	if (msr == MSR_ZHAOXIN_FCR57 && m->prof->shanghai) {
		m->st.msr_writes[2]++;
		m->fcr57 = locked ? val & ~(uint64_t)FCR57_ACE_ENABLE : val;
		return 0;
	}
	if (msr == MSR_VIA_FCR && m->prof->has_fcr) {
		m->st.msr_writes[0]++;
		m->fcr = locked ? val & ~(uint64_t)FCR_ACE_ENABLE : val;
		return 0;
	}
	if (msr == MSR_VIA_RNG && m->prof->rng_msr) {
		m->st.msr_writes[1]++;
		m->rng_msr = val;
		return 0;
	}
	return HW_EFAULT;
}

void padlock_model_reload(struct padlock_model *m)
{
	m->key_loaded = false;
	m->st.reloads++;
}

uint32_t padlock_model_eflags30(const struct padlock_model *m)
{
	return m->key_loaded && !m->opt.strict ? PADLOCK_MODEL_EFLAGS_KEY : 0;
}

/* ---- helpers ---- */

static void *ptr(uint32_t addr)
{
	return (void *)(uintptr_t)addr;
}

#define CHECK(x)	do { enum padlock_model_exc e_ = (x); if (e_) return e_; } while (0)

static enum padlock_model_exc need_aligned(struct padlock_model *m, const char *what, uint32_t v)
{
	if (v & (PADLOCK_ALIGN - 1))
		return fail(m, PADLOCK_EXC_GP, "%s at 0x%08x is not 16-byte aligned", what, v);
	return PADLOCK_EXC_NONE;
}

static enum padlock_model_exc need_unit(struct padlock_model *m, uint32_t enable_bit,
					const char *unit)
{
	if (!unit_enabled(m, enable_bit))
		return fail(m, PADLOCK_EXC_UD,
			    "%s instruction with the unit disabled (CPUID 0xC0000001)", unit);
	return PADLOCK_EXC_NONE;
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
static enum padlock_model_exc load_key(struct padlock_model *m, const uint32_t *cw_mem,
				       const uint8_t *key_mem)
{
	uint8_t buf[PADLOCK_KEYBUF_BYTES];
	uint32_t cw = cw_mem[0], ksize, rounds, i;
	uint32_t alg_bad = m->prof == &profiles[PADLOCK_CPU_NEHEMIAH] ? CW_ALG_MASK
								      : (CW_ALG_MASK & ~0x20u);

	if (m->opt.strict && (cw_mem[1] || cw_mem[2] || cw_mem[3]))
		return fail(m, PADLOCK_EXC_GP,
			    "control word bits 127:32 not zero (strict option: not documented behaviour)");
	ksize = (cw & CW_KSIZE_MASK) >> CW_KSIZE_SHIFT;
	rounds = cw & CW_ROUNDS_MASK;
	if ((cw & CW_RESERVED) || (cw & alg_bad) || (cw & CW_INTERM) || ksize > 2 ||
	    rounds != 10 + 2 * ksize)
		return fail(m, PADLOCK_EXC_GP, "undefined control word 0x%08x", cw);
	if (!(cw & CW_KEYGN) && ksize != 0)
		return fail(m, PADLOCK_EXC_GP, "hardware key expansion asked for a %u-bit key",
			    128 + 64 * ksize);
	memcpy(buf, key_mem, sizeof(buf));	/* the unit reads 16 x 16 bytes */
	memset(&m->key, 0, sizeof(m->key));
	if (!(cw & CW_KEYGN)) {
		aes_set_key(&m->key, buf, 16);
	} else {
		/* A software schedule in natural byte order serves both ways:
		 * as the cipher's schedule and as the inverse cipher's. */
		for (i = 0; i < 4 * (rounds + 1); i++)
			m->key.ek[i] = m->key.dk[i] = load_le32(buf + 4 * i);
		m->key.rounds = rounds;
		m->key.key_bits = 128 + 64 * ksize;
	}
	memset(buf, 0, sizeof(buf));
	memcpy(m->cw, cw_mem, sizeof(m->cw));
	m->cw[1] = m->cw[2] = m->cw[3] = 0;	/* not used: hardware ignores them */
	m->key_loaded = true;
	m->st.key_loads++;
	return PADLOCK_EXC_NONE;
}

static void cipher(struct padlock_model *m, bool inverse, const uint8_t in[16], uint8_t out[16])
{
	if (inverse)
		aes_decrypt_block(&m->key, in, out);
	else
		aes_encrypt_block(&m->key, in, out);
}

static void ctr_inc32(uint8_t c[16])
{
	int i;
	for (i = 15; i >= 12; i--)
		if (++c[i] != 0)
			break;
}

enum xmode { X_ECB, X_CBC, X_CTR, X_CFB, X_OFB };

/*
 * The prefetch: bytes the unit reads past the input before it writes
 * anything. Default [LAES]: ECB and CBC fetch in groups (fetch_ecb,
 * fetch_cbc blocks), so a count that is not a whole number of groups reads
 * on to the end of its last group; nothing past a whole group, nothing in
 * CFB, OFB or CTR (no source reports it). Strict (not documented
 * behaviour): the whole group past the end in every mode, as this model
 * did before.
 */
static size_t overread_bytes(const struct padlock_model *m, enum xmode mode, uint32_t n)
{
	unsigned g = mode == X_ECB ? m->prof->fetch_ecb : m->prof->fetch_cbc;

	if (m->opt.strict)
		return 16u * (mode == X_ECB ? m->prof->fetch_ecb : m->prof->fetch_cbc);
	if ((mode != X_ECB && mode != X_CBC) || g <= 1)
		return 0;
	return 16u * ((g - n % g) % g);
}

static enum padlock_model_exc exec_xcrypt(struct padlock_model *m, struct padlock_model_regs *r,
				     uint8_t modrm)
{
	const uint8_t *in = ptr(r->esi);
	uint8_t *out = ptr(r->edi);
	uint8_t *ivp = ptr(r->eax);
	uint32_t n = r->ecx, i;
	uint8_t iv[16], x[16], y[16], ks[16];
	enum xmode mode;
	size_t fetch;
	bool dec, stale_ecb = false;

	switch (modrm) {
	case PADLOCK_MODRM_ECB: mode = X_ECB; break;
	case PADLOCK_MODRM_CBC: mode = X_CBC; break;
	case PADLOCK_MODRM_CTR: mode = X_CTR; break;
	case PADLOCK_MODRM_CFB: mode = X_CFB; break;
	default: mode = X_OFB; break;
	}
	CHECK(need_unit(m, PADLOCK_EDX_ACE_EN, "xcrypt"));
	if (mode == X_CTR)
		CHECK(need_unit(m, PADLOCK_EDX_ACE2_EN, "xcrypt-ctr (ACE2)"));
	if (n == 0)
		return PADLOCK_EXC_NONE;	/* rep with ECX = 0 does nothing */
	if (mode == X_CTR && (m->opt.faults & PADLOCK_MODEL_FAULT_CTR_PROBE_HANG)) {
		/* Never completes: nothing done, the instruction runs again and again. */
		m->st.hung++;
		m->no_progress = true;
		return PADLOCK_EXC_NONE;
	}
	CHECK(need_aligned(m, "control word (EDX)", r->edx));
	CHECK(need_aligned(m, "key (EBX)", r->ebx));
	if (mode == X_ECB || !m->prof->unaligned_data || m->opt.strict) {
		CHECK(need_aligned(m, "source (ESI)", r->esi));
		CHECK(need_aligned(m, "destination (EDI)", r->edi));
	}
	if (mode != X_ECB)
		CHECK(need_aligned(m, "IV (EAX)", r->eax));
	if (!m->key_loaded) {
		CHECK(load_key(m, ptr(r->edx), ptr(r->ebx)));
	} else if (mode == X_ECB && (m->last_mode == X_CFB || m->last_mode == X_OFB)) {
		/* ECB on a key cached by CFB/OFB: OpenSSL reloads here
		 * ("empirically found"); what the unit then computes is not
		 * known: the model gives wrong output (assumption). */
		stale_ecb = true;
		m->st.stale_ecb++;
	}
	m->last_mode = mode;
	m->st.xcrypt++;
	dec = (m->cw[0] & CW_DECRYPT) != 0;

	/* The prefetch: read past the end of the input before anything else
	 * (in a host test a guard page there turns a missing bounce into #PF). */
	fetch = overread_bytes(m, mode, n);
	if (fetch) {
		const volatile uint8_t *end = in + (size_t)n * 16;
		(void)end[0];
		(void)end[fetch - 1];
		m->st.overread_bytes += fetch;
	}
	if (mode != X_ECB)
		memcpy(iv, ivp, 16);
	for (i = 0; i < n; i++) {
		memcpy(x, in + 16 * i, 16);
		switch (mode) {
		case X_ECB:
			cipher(m, dec, x, y);
			if (stale_ecb)
				y[0] ^= 0xA5;
			break;
		case X_CBC:
			if (dec) {
				cipher(m, true, x, y);
				xor16(y, y, iv);
				memcpy(iv, x, 16);
			} else {
				xor16(x, x, iv);
				cipher(m, false, x, y);
				memcpy(iv, y, 16);
			}
			break;
		case X_CFB:	/* the forward cipher both ways; the bit picks the feedback */
			cipher(m, false, iv, ks);
			xor16(y, x, ks);
			memcpy(iv, dec ? x : y, 16);
			break;
		case X_OFB:	/* with the decrypt bit set the unit runs the inverse cipher */
			cipher(m, dec, iv, ks);
			memcpy(iv, ks, 16);
			xor16(y, x, ks);
			break;
		case X_CTR:
			cipher(m, dec, iv, ks);
			ctr_inc32(iv);
			xor16(y, x, ks);
			break;
		}
		if (i == n - 1 && (m->opt.faults & PADLOCK_MODEL_FAULT_WRONG_DATA))
			y[15] ^= 0x01;
		memcpy(out + 16 * i, y, 16);
	}
	r->esi += 16 * n;
	r->edi += 16 * n;
	r->ecx = 0;
	if (mode == X_CBC && !dec)
		r->eax = (uint32_t)(uintptr_t)out + 16 * (n - 1);	/* next IV */
	else if (mode != X_ECB)
		memcpy(ivp, iv, 16);
	return PADLOCK_EXC_NONE;
}

/* ---- xstore ---- */

static uint64_t rng_next(struct padlock_model *m)
{
	return splitmix64_next(&m->rng_state);	/* deterministic test data */
}

/*
 * One store at dst: divisor 0 stores a whole 8-byte unit, 1 to 3 a 32-bit
 * unit holding 32, 16 or 8 random bits [LRNG VIA_RNG_CHUNK_*: "64 rand
 * bits, 64 stored bits", "32 rand bits, 32 stored bits", "16 rand bits,
 * 32 stored bits", "8 rand bits, 32 stored bits"]; the count is the
 * divisor's random bytes (8, 4, 2, 1; assumption: Linux reads only that it
 * is not 0). Returns the count, 0 when the FIFO was empty (nothing stored).
 */
static uint32_t xstore_one(struct padlock_model *m, uint8_t *dst, uint32_t divisor, bool may_be_empty)
{
	unsigned width = divisor >= 1 ? 4 : XSTORE_UNIT_BYTES, i;
	uint64_t v;

	m->st.xstore++;
	m->xstores++;
	if (may_be_empty && ((m->opt.faults & PADLOCK_MODEL_FAULT_RNG_STUCK) ||
			     (m->opt.rng_empty_every && m->xstores % m->opt.rng_empty_every == 0))) {
		m->st.xstore_empty++;
		return 0;
	}
	v = rng_next(m);
	if (divisor == 0 && (m->opt.faults & PADLOCK_MODEL_FAULT_XSTORE_DIV0_BIASED))
		v |= rng_next(m);	/* ones with probability 3/4 */
	for (i = 0; i < width; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
	return XSTORE_UNIT_BYTES >> divisor;
}

/*
 * The status bits of a store: the RNG MSR's copy where the model has that
 * MSR (the C3 and C7 [PG]; the KX-7000 by assumption, as Linux writes
 * 0x110B there), else bit 6 only (assumption: nothing documents them);
 * xstore-status-bits sets bits 10-14 on top.
 */
static uint32_t xstore_status(const struct padlock_model *m)
{
	uint32_t st = m->prof->rng_msr ? (uint32_t)m->rng_msr & ~XSTORE_COUNT_MASK : XSTORE_ENABLED;

	if (m->opt.faults & PADLOCK_MODEL_FAULT_XSTORE_STATUS_BITS)
		st |= XSTORE_STATE_MASK;
	return st;
}

static enum padlock_model_exc exec_xstore(struct padlock_model *m, struct padlock_model_regs *r)
{
	uint32_t divisor = r->edx & 3, count;

	CHECK(need_unit(m, PADLOCK_EDX_RNG_EN, "xstore"));
	count = xstore_one(m, ptr(r->edi), divisor, true);
	r->edi += count;
	r->eax = xstore_status(m) | count;
	return PADLOCK_EXC_NONE;
}

/*
 * rep xstore [OBSD]: ECX = bytes wanted; stores until they are there (the
 * last store may write up to a unit past them: callers keep slack), EDI
 * advanced by the bytes stored, ECX = 0. The model never finds the FIFO
 * empty here (assumption: the rep form waits for data); the rng-stuck
 * fault makes it store nothing and return with ECX unchanged.
 */
static enum padlock_model_exc exec_rep_xstore(struct padlock_model *m, struct padlock_model_regs *r)
{
	uint32_t divisor = r->edx & 3, count = 0;

	CHECK(need_unit(m, PADLOCK_EDX_RNG_EN, "rep xstore"));
	if (m->opt.faults & PADLOCK_MODEL_FAULT_RNG_STUCK) {
		r->eax = xstore_status(m);
		return PADLOCK_EXC_NONE;
	}
	while (r->ecx) {
		count = xstore_one(m, ptr(r->edi), divisor, false);
		r->edi += count;
		r->ecx = r->ecx > count ? r->ecx - count : 0;
	}
	r->eax = xstore_status(m) | count;
	return PADLOCK_EXC_NONE;
}

/* ---- xsha1 / xsha256 ---- */

/*
 * One-shot (EAX = bytes done, ECX = total, the unit pads) or block mode
 * (EAX = -1, ECX = blocks, Nano and later) [LSHA][PG]. Also modelled:
 *   - ECX = 0 in one-shot: the empty message's digest on VIA parts (Linux's
 *     C7 padlock_sha1/256_finup and GnuTLS's padlock_sha1/256_oneshot send
 *     ECX = 0 for the empty message and pass their empty test vector
 *     there); no operation on Zhaoxin, as it documents (Linux padlock-sha
 *     patch, 2025). Counted either way (xsha_ecx0), so a driver issuing it
 *     shows: this driver never does, since Zhaoxin's answer differs;
 *   - block mode on a part without it (C7): a wrong result, not a fault
 *     (GnuTLS's probe on a C7 Esther, openssl issue 20167); which wrong
 *     result is unknown: the model leaves the state as it was (assumption).
 *     Strict (not documented behaviour): #GP;
 *   - the state buffer: 128 bytes, the microcode works beyond the digest
 *     words [LSHA]; Zhaoxin's XSHA1 needs 32 bytes only.
 */
static enum padlock_model_exc exec_xsha(struct padlock_model *m, struct padlock_model_regs *r,
				   bool sha256)
{
	uint32_t *state = ptr(r->edi);
	const uint8_t *msg = ptr(r->esi);
	uint32_t eax = r->eax, ecx = r->ecx;
	unsigned words = sha256 ? 8 : 5, i, state_words;
	uint32_t h[8], rem, left, full;
	uint8_t tail[128];
	uint64_t bits;

	CHECK(need_unit(m, PADLOCK_EDX_PHE_EN, sha256 ? "xsha256" : "xsha1"));
	CHECK(need_aligned(m, "hash state (EDI)", r->edi));
	if (eax == PHE_BLOCK_MODE && !m->prof->phe_blocks) {
		if (m->opt.strict)
			return fail(m, PADLOCK_EXC_GP,
				    "PHE block mode (EAX = -1) on the %s (strict option: not documented behaviour)",
				    m->prof->cpu);
		m->st.xsha++;
		m->st.xsha_no_blocks++;
		r->ecx = 0;		/* a wrong result: the state as it was */
		return PADLOCK_EXC_NONE;
	}
	if (eax != PHE_BLOCK_MODE && (eax % 64 || eax > ecx))
		return fail(m, PADLOCK_EXC_GP,
			    "one-shot xsha with EAX = %u (bytes done) and ECX = %u", eax, ecx);
	m->st.xsha++;
	if (eax != PHE_BLOCK_MODE && ecx == 0) {
		m->st.xsha_ecx0++;
		if (m->prof->zhaoxin_phe)
			return PADLOCK_EXC_NONE;	/* no operation [Zhaoxin] */
		/* VIA: on to the padding of the empty message */
	}
	memcpy(h, state, words * 4);
	if (eax == PHE_BLOCK_MODE) {
		if (sha256)
			sha256_blocks(h, msg, ecx);
		else
			sha1_blocks(h, msg, ecx);
		r->esi += 64 * ecx;
		r->ecx = 0;
	} else {
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
		r->esi += left;
		r->eax = ecx;
		r->ecx = 0;
	}
	if (m->opt.faults & PADLOCK_MODEL_FAULT_HASH_WRONG)
		h[0] ^= 1;
	memcpy(state, h, words * 4);
	/* The microcode works in the rest of the state buffer. */
	state_words = (m->prof->zhaoxin_phe && !sha256) ? 32 / 4 : PHE_STATE_BYTES / 4;
	for (i = words; i < state_words; i++)
		state[i] = 0xA5A5A5A5u ^ i;
	return PADLOCK_EXC_NONE;
}

/* ---- montmul ---- */

static enum padlock_model_exc need_zero_pad(struct padlock_model *m, const char *what,
					    const uint32_t *v, unsigned words)
{
	unsigned i;
	for (i = 0; i < PMM_PAD_WORDS; i++)
		if (v[words + i])
			return fail(m, PADLOCK_EXC_GP,
				    "montmul %s: the 16 bytes after the vector are not zero", what);
	return PADLOCK_EXC_NONE;
}

static enum padlock_model_exc exec_montmul(struct padlock_model *m, struct padlock_model_regs *r)
{
	const uint32_t *p = ptr(r->esi);
	uint32_t bits = r->ecx, words = bits / 32, i;
	const uint32_t *a, *b, *mod;
	uint32_t *t;
	uint8_t *scratch;

	CHECK(need_unit(m, PADLOCK_EDX_PMM_EN, "montmul"));
	if (r->eax != 0)
		return fail(m, PADLOCK_EXC_GP, "montmul with EAX = 0x%08x (must be 0)", r->eax);
	if (bits % (32 * PMM_WORD_MULTIPLE) || words < PMM_MIN_WORDS || words > PMM_MAX_WORDS)
		return fail(m, PADLOCK_EXC_GP, "montmul with ECX = %u bits", bits);
	a = ptr(p[1]);
	b = ptr(p[2]);
	t = ptr(p[3]);
	mod = ptr(p[4]);
	scratch = ptr(p[5]);
	CHECK(need_aligned(m, "montmul A", p[1]));
	CHECK(need_aligned(m, "montmul B", p[2]));
	CHECK(need_aligned(m, "montmul T", p[3]));
	CHECK(need_aligned(m, "montmul M", p[4]));
	CHECK(need_zero_pad(m, "A", a, words));
	CHECK(need_zero_pad(m, "B", b, words));
	CHECK(need_zero_pad(m, "M", mod, words));
	m->st.montmul++;
	montmul_raw(m->mont_tmp, a, b, mod, p[0], words);
	for (i = 0; i <= words; i++)
		t[i] = m->mont_tmp[i];
	for (i = 0; i < PMM_SCRATCH_BYTES; i++)
		scratch[i] = (uint8_t)(0x5A ^ i);
	r->ecx = 0;
	return PADLOCK_EXC_NONE;
}

/* ---- decode and execute ---- */

bool padlock_model_is_insn(const uint8_t *ip)
{
	const uint8_t *op = ip + (ip[0] == PADLOCK_OP_REP);
	return op[0] == PADLOCK_OP_0F && (op[1] == PADLOCK_OP_GRP_A6 || op[1] == PADLOCK_OP_GRP_A7);
}

enum padlock_model_exc padlock_model_exec(struct padlock_model *m, struct padlock_model_regs *r,
					  uint32_t cr0)
{
	const uint8_t *ip = ptr(r->eip);
	unsigned rep = ip[0] == PADLOCK_OP_REP, len = rep + 3;
	const uint8_t *op = ip + rep;
	enum padlock_model_exc e;

	m->fault[0] = '\0';
	if (!padlock_model_is_insn(ip))
		return fail(m, PADLOCK_EXC_UD, "not a PadLock instruction at 0x%08x: %02x %02x %02x %02x",
			    r->eip, ip[0], ip[1], ip[2], ip[3]);
	if (cr0 & (CR0_TS | CR0_EM))
		return fail(m, PADLOCK_EXC_NM,
			    "PadLock instruction with CR0.TS or CR0.EM set (CR0 = 0x%08x)", cr0);
	if (op[1] == PADLOCK_OP_GRP_A7 && op[2] == PADLOCK_MODRM_XSTORE && !rep)
		e = exec_xstore(m, r);
	else if (op[1] == PADLOCK_OP_GRP_A7 && op[2] == PADLOCK_MODRM_XSTORE)
		e = exec_rep_xstore(m, r);
	else if (op[1] == PADLOCK_OP_GRP_A7 && rep &&
		 (op[2] == PADLOCK_MODRM_ECB || op[2] == PADLOCK_MODRM_CBC ||
		  op[2] == PADLOCK_MODRM_CTR || op[2] == PADLOCK_MODRM_CFB ||
		  op[2] == PADLOCK_MODRM_OFB))
		e = exec_xcrypt(m, r, op[2]);
	else if (op[1] == PADLOCK_OP_GRP_A6 && rep && op[2] == PADLOCK_MODRM_XSHA1)
		e = exec_xsha(m, r, false);
	else if (op[1] == PADLOCK_OP_GRP_A6 && rep && op[2] == PADLOCK_MODRM_XSHA256)
		e = exec_xsha(m, r, true);
	else if (op[1] == PADLOCK_OP_GRP_A6 && rep && op[2] == PADLOCK_MODRM_MONTMUL)
		e = exec_montmul(m, r);
	else
		return fail(m, PADLOCK_EXC_UD, "PadLock form not emulated: %02x %02x %02x %02x",
			    ip[0], ip[1], ip[2], ip[3]);
	if (e == PADLOCK_EXC_NONE && !m->no_progress)
		r->eip += len;
	m->no_progress = false;
	return e;
}
