/*
 * cpuid: decode the CPUID leaves this project cares about into a cpu_info,
 * from any source of CPUID answers (the real instruction in the kernel, a
 * text dump on the host, a table in a unit test).
 *
 * Sources: Intel SDM vol. 2A, CPUID instruction (leaves 0, 1, 7,
 * 0x80000000-4); AMD APM vol. 3, appendix E (CPUID on AMD, family/model);
 * Linux arch/x86/include/asm/cpufeatures.h word 5 and the VIA PadLock
 * Programming Guide (Centaur leaves 0xC0000000/1).
 */
#ifndef CQ_LIB_CPUID_H
#define CQ_LIB_CPUID_H

#include <stdbool.h>
#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/*
 * Answers CPUID(leaf, subleaf) into *out. Returns false when the source has
 * no answer for that leaf (a dump lacking it); the real instruction always
 * answers. The decoder always asks leaves 0 and 0x80000000 (and 0xC0000000
 * on Centaur/Zhaoxin), the others only up to the maximum those report.
 * cpuid_decode() asks subleaf 0 only.
 */
typedef bool (*cpuid_query_fn)(void *ctx, uint32_t leaf, uint32_t subleaf,
			       struct cpuid_regs *out);

/* Leaves */
#define CPUID_LEAF_VENDOR	0x00000000u	/* EAX max basic leaf, vendor in EBX EDX ECX */
#define CPUID_LEAF_FEATURES	0x00000001u	/* signature, feature flags */
#define CPUID_LEAF_EXTFEAT	0x00000007u	/* structured ext. features, subleaf 0 */
#define CPUID_LEAF_EXT_MAX	0x80000000u	/* EAX max extended leaf */
#define CPUID_LEAF_BRAND0	0x80000002u	/* brand string, 3 leaves x 16 bytes */
#define CPUID_LEAF_BRAND2	0x80000004u
#define CPUID_LEAF_CENTAUR_MAX	0xC0000000u	/* EAX max Centaur leaf */
#define CPUID_LEAF_CENTAUR_FEAT	0xC0000001u	/* EDX PadLock flags */

/* Leaf 1 EAX: signature (Intel SDM vol. 2A, figure "Version Information") */
#define CPUID_SIG_STEPPING(a)	((a) & 0xFu)
#define CPUID_SIG_MODEL(a)	(((a) >> 4) & 0xFu)
#define CPUID_SIG_FAMILY(a)	(((a) >> 8) & 0xFu)
#define CPUID_SIG_EXTMODEL(a)	(((a) >> 16) & 0xFu)
#define CPUID_SIG_EXTFAMILY(a)	(((a) >> 20) & 0xFFu)

/* Leaf 1 ECX */
#define CPUID_1_ECX_PCLMULQDQ	(1u << 1)
#define CPUID_1_ECX_SSSE3	(1u << 9)
#define CPUID_1_ECX_AES		(1u << 25)
#define CPUID_1_ECX_RDRAND	(1u << 30)
#define CPUID_1_ECX_HYPERVISOR	(1u << 31)	/* set by hypervisors, 0 on hardware */
/* Leaf 1 EDX */
#define CPUID_1_EDX_TSC		(1u << 4)
#define CPUID_1_EDX_MSR		(1u << 5)
#define CPUID_1_EDX_CMOV	(1u << 15)
#define CPUID_1_EDX_MMX		(1u << 23)
#define CPUID_1_EDX_SSE		(1u << 25)
#define CPUID_1_EDX_SSE2	(1u << 26)
/* Leaf 7 subleaf 0 EBX */
#define CPUID_7_EBX_RDSEED	(1u << 18)
#define CPUID_7_EBX_SHA		(1u << 29)

/* Leaf 0xC0000001 EDX: each unit has a "present" bit and an "enabled" bit */
#define CPUID_C1_EDX_RNG	2	/* xstore; enabled = bit 3 */
#define CPUID_C1_EDX_ACE	6	/* xcrypt AES; enabled = bit 7 */
#define CPUID_C1_EDX_ACE2	8	/* ACE v2; enabled = bit 9 */
#define CPUID_C1_EDX_PHE	10	/* xsha1/xsha256; enabled = bit 11 */
#define CPUID_C1_EDX_PMM	12	/* montmul; enabled = bit 13 */
#define CPUID_C1_EDX_PHE2	25	/* Zhaoxin SHA-384/512; enabled = bit 26 */

#define CPUID_VENDOR_INTEL	"GenuineIntel"
#define CPUID_VENDOR_AMD	"AuthenticAMD"
#define CPUID_VENDOR_CENTAUR	"CentaurHauls"	/* VIA, early Zhaoxin */
#define CPUID_VENDOR_ZHAOXIN	"  Shanghai  "

enum padlock_state {
	PADLOCK_ABSENT,		/* present bit clear (or no Centaur leaf) */
	PADLOCK_PRESENT,	/* present, not enabled: do not use */
	PADLOCK_ENABLED,	/* present and enabled: usable */
};

struct cpu_info {
	char vendor[13];	/* 12 chars of leaf 0, NUL-terminated; "" if none */
	char brand[49];		/* leaves 0x80000002-4, spaces trimmed both ends */
				/* (both: a byte outside ASCII 0x20-0x7E reads '?') */
	/* Display values (decimal), see cpuid_decode() for the rule */
	unsigned family, model, stepping;
	uint32_t signature;	/* raw leaf 1 EAX */
	uint32_t max_leaf;	/* leaf 0 EAX */
	uint32_t max_ext_leaf;	/* leaf 0x80000000 EAX, 0 if not valid */
	uint32_t max_centaur_leaf; /* leaf 0xC0000000 EAX, 0 if not read/valid */
	bool tsc, msr, cmov, mmx, sse, sse2, ssse3;
	bool aesni, pclmulqdq, rdrand, rdseed, sha, hypervisor;
	uint32_t centaur_edx;	/* raw leaf 0xC0000001 EDX, 0 if not read */
	enum padlock_state rng, ace, ace2, phe, pmm, phe2;
};

/*
 * Fills *ci from the CPUID answers given by q(ctx, ...). Leaves the source
 * lacks decode as zero (features off, padlock absent, empty strings).
 *
 * Family/model: family = base family, plus extended family when base family
 * is 0xF; model = base model, plus extended model << 4 when base family >= 6.
 * This is Linux's x86_family()/x86_model(); it matches the Intel SDM rule
 * (extended model for families 6 and 0xF) and the AMD APM rule (extended
 * fields used for family 0xF; AMD leaves them 0 below that), and gives
 * Zhaoxin family 7 its real models. E.g. VIA Nano 0x6F2 = family 6 model 15.
 *
 * Leaf 0xC0000000 is read only for "CentaurHauls" and "  Shanghai  " (other
 * vendors return unrelated data there), and 0xC0000001 only if it reports a
 * maximum in 0xC0000001..0xC00000FF.
 */
void cpuid_decode(struct cpu_info *ci, cpuid_query_fn q, void *ctx);

/* "absent", "present" or "enabled" ("?" for an out-of-range value). */
const char *padlock_state_name(enum padlock_state s);

/*
 * A PadLock unit's state from CPUID 0xC0000001 EDX: the present bit
 * (CPUID_C1_EDX_*) and the enabled bit just above it.
 */
enum padlock_state cpuid_padlock_state(uint32_t edx, unsigned present_bit);

/*
 * Calls emit(ctx, key, value) once per field, in this order: vendor, family,
 * model, stepping (decimal), brand, cmov, sse2, aesni, rdrand, rdseed (0|1),
 * padlock.rng, padlock.ace, padlock.ace2, padlock.phe, padlock.pmm,
 * padlock.phe2 (padlock_state_name), then extras: tsc, msr, mmx, sse,
 * pclmulqdq, sha, hypervisor (0|1), signature, max_leaf, max_ext_leaf,
 * max_centaur_leaf, centaur_edx (0x%08x). value points to a temporary
 * buffer valid only during the call.
 */
typedef void (*cpuid_kv_fn)(void *ctx, const char *key, const char *value);
void cpuid_kv(const struct cpu_info *ci, cpuid_kv_fn emit, void *ctx);

#endif
