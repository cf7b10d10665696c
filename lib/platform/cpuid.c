/* cpuid: decode CPUID answers into a cpu_info. See cpuid.h for sources. */
#include "lib/platform/cpuid.h"
#include "lib/util/fmt.h"

#include <string.h>

/* Sanity ranges for the "maximum leaf" answers of the two upper ranges. */
#define CPUID_EXT_LAST		0x800000FFu
#define CPUID_CENTAUR_LAST	0xC00000FFu

static bool query(cpuid_query_fn q, void *ctx, uint32_t leaf,
		  struct cpuid_regs *r)
{
	if (q(ctx, leaf, 0, r))
		return true;
	memset(r, 0, sizeof(*r));
	return false;
}

static void put_le32(char *p, uint32_t v)
{
	p[0] = (char)(v & 0xFF);
	p[1] = (char)((v >> 8) & 0xFF);
	p[2] = (char)((v >> 16) & 0xFF);
	p[3] = (char)(v >> 24);
}

/* Removes leading and trailing spaces from the NUL-terminated s in place. */
static void trim_spaces(char *s)
{
	size_t start = 0, len = strlen(s);

	while (start < len && s[start] == ' ')
		start++;
	while (len > start && s[len - 1] == ' ')
		len--;
	memmove(s, s + start, len - start);
	s[len - start] = '\0';
}

/* Bytes outside printable ASCII become '?': CPUID strings reach the
 * one-line report, and a dump (or an emulator) may put any byte there. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

static void decode_signature(struct cpu_info *ci, uint32_t eax)
{
	unsigned family = CPUID_SIG_FAMILY(eax);
	unsigned model = CPUID_SIG_MODEL(eax);

	ci->signature = eax;
	ci->stepping = CPUID_SIG_STEPPING(eax);
	if (family >= 6)
		model += CPUID_SIG_EXTMODEL(eax) << 4;
	if (family == 0xF)
		family += CPUID_SIG_EXTFAMILY(eax);
	ci->family = family;
	ci->model = model;
}

static void decode_brand(struct cpu_info *ci, cpuid_query_fn q, void *ctx)
{
	struct cpuid_regs r;
	uint32_t leaf;
	char *p = ci->brand;

	for (leaf = CPUID_LEAF_BRAND0; leaf <= CPUID_LEAF_BRAND2; leaf++) {
		if (!query(q, ctx, leaf, &r)) {
			ci->brand[0] = '\0';
			return;
		}
		put_le32(p, r.eax);
		put_le32(p + 4, r.ebx);
		put_le32(p + 8, r.ecx);
		put_le32(p + 12, r.edx);
		p += 16;
	}
	*p = '\0';	/* brand[48]; the string may also end earlier */
	printable(ci->brand);
	trim_spaces(ci->brand);
}

enum padlock_state cpuid_padlock_state(uint32_t edx, unsigned present_bit)
{
	if (!(edx & (1u << present_bit)))
		return PADLOCK_ABSENT;
	if (!(edx & (1u << (present_bit + 1))))
		return PADLOCK_PRESENT;
	return PADLOCK_ENABLED;
}

static void decode_centaur(struct cpu_info *ci, cpuid_query_fn q, void *ctx)
{
	struct cpuid_regs r;
	uint32_t edx;

	if (strcmp(ci->vendor, CPUID_VENDOR_CENTAUR) != 0 &&
	    strcmp(ci->vendor, CPUID_VENDOR_ZHAOXIN) != 0)
		return;
	if (!query(q, ctx, CPUID_LEAF_CENTAUR_MAX, &r) ||
	    r.eax < CPUID_LEAF_CENTAUR_FEAT || r.eax > CPUID_CENTAUR_LAST)
		return;
	ci->max_centaur_leaf = r.eax;
	if (!query(q, ctx, CPUID_LEAF_CENTAUR_FEAT, &r))
		return;
	edx = r.edx;
	ci->centaur_edx = edx;
	ci->rng = cpuid_padlock_state(edx, CPUID_C1_EDX_RNG);
	ci->ace = cpuid_padlock_state(edx, CPUID_C1_EDX_ACE);
	ci->ace2 = cpuid_padlock_state(edx, CPUID_C1_EDX_ACE2);
	ci->phe = cpuid_padlock_state(edx, CPUID_C1_EDX_PHE);
	ci->pmm = cpuid_padlock_state(edx, CPUID_C1_EDX_PMM);
	ci->phe2 = cpuid_padlock_state(edx, CPUID_C1_EDX_PHE2);
}

void cpuid_decode(struct cpu_info *ci, cpuid_query_fn q, void *ctx)
{
	struct cpuid_regs r;

	memset(ci, 0, sizeof(*ci));	/* PADLOCK_ABSENT == 0 */
	if (!query(q, ctx, CPUID_LEAF_VENDOR, &r))
		return;
	ci->max_leaf = r.eax;
	put_le32(ci->vendor, r.ebx);
	put_le32(ci->vendor + 4, r.edx);
	put_le32(ci->vendor + 8, r.ecx);
	ci->vendor[12] = '\0';
	printable(ci->vendor);

	if (ci->max_leaf >= CPUID_LEAF_FEATURES &&
	    query(q, ctx, CPUID_LEAF_FEATURES, &r)) {
		decode_signature(ci, r.eax);
		ci->pclmulqdq = (r.ecx & CPUID_1_ECX_PCLMULQDQ) != 0;
		ci->aesni = (r.ecx & CPUID_1_ECX_AES) != 0;
		ci->rdrand = (r.ecx & CPUID_1_ECX_RDRAND) != 0;
		ci->hypervisor = (r.ecx & CPUID_1_ECX_HYPERVISOR) != 0;
		ci->tsc = (r.edx & CPUID_1_EDX_TSC) != 0;
		ci->msr = (r.edx & CPUID_1_EDX_MSR) != 0;
		ci->cmov = (r.edx & CPUID_1_EDX_CMOV) != 0;
		ci->mmx = (r.edx & CPUID_1_EDX_MMX) != 0;
		ci->sse = (r.edx & CPUID_1_EDX_SSE) != 0;
		ci->sse2 = (r.edx & CPUID_1_EDX_SSE2) != 0;
		ci->ssse3 = (r.ecx & CPUID_1_ECX_SSSE3) != 0;
	}
	if (ci->max_leaf >= CPUID_LEAF_EXTFEAT &&
	    query(q, ctx, CPUID_LEAF_EXTFEAT, &r)) {
		ci->rdseed = (r.ebx & CPUID_7_EBX_RDSEED) != 0;
		ci->sha = (r.ebx & CPUID_7_EBX_SHA) != 0;
	}

	if (query(q, ctx, CPUID_LEAF_EXT_MAX, &r) &&
	    r.eax >= CPUID_LEAF_EXT_MAX && r.eax <= CPUID_EXT_LAST)
		ci->max_ext_leaf = r.eax;
	if (ci->max_ext_leaf >= CPUID_LEAF_BRAND2)
		decode_brand(ci, q, ctx);

	decode_centaur(ci, q, ctx);
}

const char *padlock_state_name(enum padlock_state s)
{
	switch (s) {
	case PADLOCK_ABSENT:
		return "absent";
	case PADLOCK_PRESENT:
		return "present";
	case PADLOCK_ENABLED:
		return "enabled";
	}
	return "?";
}

static void emit_bool(cpuid_kv_fn emit, void *ctx, const char *key, bool v)
{
	emit(ctx, key, v ? "1" : "0");
}

static void emit_fmt(cpuid_kv_fn emit, void *ctx, const char *key,
		     const char *fmt, uint32_t v)
{
	char buf[16];

	fmt_snprintf(buf, sizeof(buf), fmt, v);
	emit(ctx, key, buf);
}

void cpuid_kv(const struct cpu_info *ci, cpuid_kv_fn emit, void *ctx)
{
	emit(ctx, "vendor", ci->vendor);
	emit_fmt(emit, ctx, "family", "%u", ci->family);
	emit_fmt(emit, ctx, "model", "%u", ci->model);
	emit_fmt(emit, ctx, "stepping", "%u", ci->stepping);
	emit(ctx, "brand", ci->brand);
	emit_bool(emit, ctx, "cmov", ci->cmov);
	emit_bool(emit, ctx, "sse2", ci->sse2);
	emit_bool(emit, ctx, "aesni", ci->aesni);
	emit_bool(emit, ctx, "rdrand", ci->rdrand);
	emit_bool(emit, ctx, "rdseed", ci->rdseed);
	emit(ctx, "padlock.rng", padlock_state_name(ci->rng));
	emit(ctx, "padlock.ace", padlock_state_name(ci->ace));
	emit(ctx, "padlock.ace2", padlock_state_name(ci->ace2));
	emit(ctx, "padlock.phe", padlock_state_name(ci->phe));
	emit(ctx, "padlock.pmm", padlock_state_name(ci->pmm));
	emit(ctx, "padlock.phe2", padlock_state_name(ci->phe2));
	/* extras */
	emit_bool(emit, ctx, "tsc", ci->tsc);
	emit_bool(emit, ctx, "msr", ci->msr);
	emit_bool(emit, ctx, "mmx", ci->mmx);
	emit_bool(emit, ctx, "sse", ci->sse);
	emit_bool(emit, ctx, "ssse3", ci->ssse3);
	emit_bool(emit, ctx, "pclmulqdq", ci->pclmulqdq);
	emit_bool(emit, ctx, "sha", ci->sha);
	emit_bool(emit, ctx, "hypervisor", ci->hypervisor);
	emit_fmt(emit, ctx, "signature", "0x%08x", ci->signature);
	emit_fmt(emit, ctx, "max_leaf", "0x%08x", ci->max_leaf);
	emit_fmt(emit, ctx, "max_ext_leaf", "0x%08x", ci->max_ext_leaf);
	emit_fmt(emit, ctx, "max_centaur_leaf", "0x%08x", ci->max_centaur_leaf);
	emit_fmt(emit, ctx, "centaur_edx", "0x%08x", ci->centaur_edx);
}
