/* Unit tests for lib/platform/cpuid.c (decoder) and lib/host/cpuid_dump.c (dump parser). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/platform/cpuid.h"
#include "lib/host/cpuid_dump.h"

/* ---- A fake CPU: a table of leaves, and a log of the leaves asked for. */

#define FAKE_MAX_LEAVES	16
#define FAKE_MAX_ASKED	32

struct fake_cpu {
	unsigned n;
	struct { uint32_t leaf; struct cpuid_regs r; } l[FAKE_MAX_LEAVES];
	unsigned nasked;
	uint32_t asked[FAKE_MAX_ASKED];
};

static bool fake_query(void *ctx, uint32_t leaf, uint32_t subleaf,
		       struct cpuid_regs *out)
{
	struct fake_cpu *f = ctx;
	unsigned k;

	(void)subleaf;
	if (f->nasked < FAKE_MAX_ASKED)
		f->asked[f->nasked++] = leaf;
	for (k = 0; k < f->n; k++) {
		if (f->l[k].leaf == leaf) {
			*out = f->l[k].r;
			return true;
		}
	}
	return false;
}

static void fake_add(struct fake_cpu *f, uint32_t leaf, uint32_t a,
		     uint32_t b, uint32_t c, uint32_t d)
{
	assert_true(f->n < FAKE_MAX_LEAVES);
	f->l[f->n].leaf = leaf;
	f->l[f->n].r = (struct cpuid_regs){ a, b, c, d };
	f->n++;
}

static uint32_t le32(const char *s)
{
	return (uint32_t)(uint8_t)s[0] | (uint32_t)(uint8_t)s[1] << 8 |
	       (uint32_t)(uint8_t)s[2] << 16 | (uint32_t)(uint8_t)s[3] << 24;
}

/* Leaf 0: max leaf and a 12-character vendor (EBX, EDX, ECX order). */
static void fake_vendor(struct fake_cpu *f, uint32_t max, const char *v)
{
	fake_add(f, 0, max, le32(v), le32(v + 8), le32(v + 4));
}

/* Leaves 0x80000000-4 with a 48-byte brand (s is padded with NULs). */
static void fake_brand(struct fake_cpu *f, const char *s)
{
	char b[48] = { 0 };
	uint32_t leaf;

	memcpy(b, s, strlen(s));
	fake_add(f, 0x80000000, 0x80000004, 0, 0, 0);
	for (leaf = 0; leaf < 3; leaf++)
		fake_add(f, 0x80000002 + leaf, le32(b + 16 * leaf),
			 le32(b + 16 * leaf + 4), le32(b + 16 * leaf + 8),
			 le32(b + 16 * leaf + 12));
}

static bool fake_was_asked(const struct fake_cpu *f, uint32_t leaf)
{
	unsigned k;

	for (k = 0; k < f->nasked; k++)
		if (f->asked[k] == leaf)
			return true;
	return false;
}

static void assert_no_padlock(const struct cpu_info *ci)
{
	assert_int_equal(ci->rng, PADLOCK_ABSENT);
	assert_int_equal(ci->ace, PADLOCK_ABSENT);
	assert_int_equal(ci->ace2, PADLOCK_ABSENT);
	assert_int_equal(ci->phe, PADLOCK_ABSENT);
	assert_int_equal(ci->pmm, PADLOCK_ABSENT);
	assert_int_equal(ci->phe2, PADLOCK_ABSENT);
}

/* ---- Decoder */

static void test_intel_aes_rdrand(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 0xD, "GenuineIntel");
	fake_add(&f, 1, 0x000306A9, 0, CPUID_1_ECX_AES | CPUID_1_ECX_RDRAND |
		 CPUID_1_ECX_PCLMULQDQ, CPUID_1_EDX_TSC | CPUID_1_EDX_CMOV |
		 CPUID_1_EDX_SSE | CPUID_1_EDX_SSE2);
	fake_add(&f, 7, 0, CPUID_7_EBX_RDSEED | CPUID_7_EBX_SHA, 0, 0);
	fake_brand(&f, "Intel(R) Core(TM) i7-3770K CPU @ 3.50GHz");
	cpuid_decode(&ci, fake_query, &f);

	assert_string_equal(ci.vendor, "GenuineIntel");
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 58);
	assert_int_equal(ci.stepping, 9);
	assert_int_equal(ci.max_leaf, 0xD);
	assert_true(ci.aesni && ci.rdrand && ci.pclmulqdq);
	assert_true(ci.tsc && ci.cmov && ci.sse && ci.sse2);
	assert_false(ci.msr || ci.mmx || ci.hypervisor);
	assert_true(ci.rdseed && ci.sha);
	assert_string_equal(ci.brand, "Intel(R) Core(TM) i7-3770K CPU @ 3.50GHz");
	assert_no_padlock(&ci);
}

/* Leaf 7 must not be read when the max basic leaf is below 7. */
static void test_leaf7_needs_max_leaf(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 1, "GenuineIntel");
	fake_add(&f, 1, 0x000006F0, 0, CPUID_1_ECX_HYPERVISOR, 0);
	fake_add(&f, 7, 0, 0xFFFFFFFF, 0, 0);
	cpuid_decode(&ci, fake_query, &f);
	assert_false(ci.rdseed || ci.sha);
	assert_true(ci.hypervisor);
	assert_false(fake_was_asked(&f, 7));
}

/* On Intel, 0xC0000000 returns unrelated data: it must not even be asked. */
static void test_intel_ignores_centaur_leaves(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 1, "GenuineIntel");
	fake_add(&f, 1, 0x000006F6, 0, 0, 0);
	fake_add(&f, 0xC0000000, 0xC0000001, 0, 0, 0);
	fake_add(&f, 0xC0000001, 0, 0, 0, 0xFFFFFFFF);
	cpuid_decode(&ci, fake_query, &f);
	assert_no_padlock(&ci);
	assert_int_equal(ci.centaur_edx, 0);
	assert_int_equal(ci.max_centaur_leaf, 0);
	assert_false(fake_was_asked(&f, 0xC0000000));
	assert_false(fake_was_asked(&f, 0xC0000001));
}

static void test_amd_geode_like(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 1, "AuthenticAMD");
	/* extended model bits set: must be ignored below family 6 */
	fake_add(&f, 1, 0x000305A2, 0, 0, 0x0088A93D);
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.vendor, "AuthenticAMD");
	assert_int_equal(ci.family, 5);
	assert_int_equal(ci.model, 10);
	assert_int_equal(ci.stepping, 2);
	assert_true(ci.cmov && ci.mmx && ci.tsc && ci.msr);
	assert_false(ci.sse || ci.sse2 || ci.aesni || ci.rdrand);
	assert_string_equal(ci.brand, "");
	assert_int_equal(ci.max_ext_leaf, 0);
	assert_no_padlock(&ci);
}

static void check_signature(uint32_t sig, unsigned family, unsigned model,
			    unsigned stepping)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	fake_vendor(&f, 1, "GenuineIntel");
	fake_add(&f, 1, sig, 0, 0, 0);
	cpuid_decode(&ci, fake_query, &f);
	assert_int_equal(ci.signature, sig);
	assert_int_equal(ci.family, family);
	assert_int_equal(ci.model, model);
	assert_int_equal(ci.stepping, stepping);
}

static void test_family_model_rules(void **state)
{
	(void)state;
	check_signature(0x000005A2, 5, 10, 2);		/* Geode LX */
	check_signature(0x000006F2, 6, 15, 2);		/* VIA Nano */
	check_signature(0x000306A9, 6, 58, 9);		/* Ivy Bridge */
	check_signature(0x00000F29, 15, 2, 9);		/* Pentium 4 */
	check_signature(0x00100F00, 16, 0, 0);		/* ext family 1 */
	check_signature(0x00160FB1, 16, 0x6B, 1);	/* ext family+model */
	check_signature(0x0F3F0FFF, 15 + 0xF3, 0xFF, 15);
	check_signature(0x000307B0, 7, 0x3B, 0);	/* Zhaoxin KX-U6780A */
	check_signature(0x00F30520, 5, 2, 0);		/* ext ignored < 6 */
}

static void test_centaur_states(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;
	uint32_t edx = 1u << 2 | 1u << 3 |	/* RNG enabled */
		       1u << 6 |		/* ACE present, disabled */
		       1u << 9 |		/* ACE2 "enabled" alone: absent */
		       1u << 10 | 1u << 11 |	/* PHE enabled */
		       1u << 12 |		/* PMM present */
		       1u << 25 | 1u << 26;	/* PHE2 enabled */

	(void)state;
	fake_vendor(&f, 1, "CentaurHauls");
	fake_add(&f, 1, 0x000006A9, 0, 0, 0);
	fake_add(&f, 0xC0000000, 0xC0000002, 0, 0, 0);
	fake_add(&f, 0xC0000001, 0, 0, 0, edx);
	cpuid_decode(&ci, fake_query, &f);
	assert_int_equal(ci.max_centaur_leaf, 0xC0000002);
	assert_int_equal(ci.centaur_edx, edx);
	assert_int_equal(ci.rng, PADLOCK_ENABLED);
	assert_int_equal(ci.ace, PADLOCK_PRESENT);
	assert_int_equal(ci.ace2, PADLOCK_ABSENT);
	assert_int_equal(ci.phe, PADLOCK_ENABLED);
	assert_int_equal(ci.pmm, PADLOCK_PRESENT);
	assert_int_equal(ci.phe2, PADLOCK_ENABLED);
}

static void test_zhaoxin_vendor(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 1, "  Shanghai  ");
	fake_add(&f, 0xC0000000, 0xC0000001, 0, 0, 0);
	fake_add(&f, 0xC0000001, 0, 0, 0, 0x00000DC0);
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.vendor, "  Shanghai  ");
	assert_int_equal(ci.ace, PADLOCK_ENABLED);
	assert_int_equal(ci.ace2, PADLOCK_PRESENT);
	assert_int_equal(ci.phe, PADLOCK_ENABLED);
	assert_int_equal(ci.rng, PADLOCK_ABSENT);
}

/* 0xC0000001 is read only if 0xC0000000 reports it (and sanely). */
static void test_centaur_max_leaf_checked(void **state)
{
	static const uint32_t bad_max[] = { 0xC0000000, 0x00000001,
					    0xC0010000, 0xFFFFFFFF };
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(bad_max) / sizeof(bad_max[0]); k++) {
		struct fake_cpu f = { 0 };
		struct cpu_info ci;

		fake_vendor(&f, 1, "CentaurHauls");
		fake_add(&f, 0xC0000000, bad_max[k], 0, 0, 0);
		fake_add(&f, 0xC0000001, 0, 0, 0, 0xFFFFFFFF);
		cpuid_decode(&ci, fake_query, &f);
		assert_true(fake_was_asked(&f, 0xC0000000));
		assert_false(fake_was_asked(&f, 0xC0000001));
		assert_no_padlock(&ci);
	}
}

/* A dump without the Centaur leaves (Samuel 2): all absent. */
static void test_centaur_without_leaf(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 1, "CentaurHauls");
	fake_add(&f, 1, 0x00000673, 0, 0, 0x00803135);
	cpuid_decode(&ci, fake_query, &f);
	assert_no_padlock(&ci);
	assert_false(ci.cmov);
	assert_true(ci.mmx);
}

static void test_brand_trimmed(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 0, "CentaurHauls");
	fake_brand(&f, "                VIA CNA processor 1800MHz ");
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.brand, "VIA CNA processor 1800MHz");
	assert_int_equal(ci.family, 0);	/* leaf 1 above max leaf 0 */
	assert_false(fake_was_asked(&f, 1));
}

/* 48 non-NUL characters: brand[48] is still the terminator. */
static void test_brand_full_length(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;
	const char *s = "0123456789abcdef0123456789abcdef0123456789abcdef";

	(void)state;
	fake_vendor(&f, 0, "GenuineIntel");
	fake_brand(&f, s);
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.brand, s);
}

static void test_brand_needs_ext_leaves(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	fake_vendor(&f, 0, "GenuineIntel");
	fake_add(&f, 0x80000000, 0x80000003, 0, 0, 0);	/* below 0x80000004 */
	fake_add(&f, 0x80000002, le32("Bad "), 0, 0, 0);
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.brand, "");
	assert_int_equal(ci.max_ext_leaf, 0x80000003);

	memset(&f, 0, sizeof(f));
	fake_vendor(&f, 0, "GenuineIntel");
	fake_add(&f, 0x80000000, 0x00000002, 0, 0, 0);	/* garbage max */
	fake_add(&f, 0x80000002, le32("Bad "), 0, 0, 0);
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.brand, "");
	assert_int_equal(ci.max_ext_leaf, 0);
}

static void test_no_answers(void **state)
{
	struct fake_cpu f = { 0 };
	struct cpu_info ci;

	(void)state;
	memset(&ci, 0x55, sizeof(ci));
	cpuid_decode(&ci, fake_query, &f);
	assert_string_equal(ci.vendor, "");
	assert_string_equal(ci.brand, "");
	assert_int_equal(ci.family, 0);
	assert_false(ci.cmov);
	assert_no_padlock(&ci);
}

static void test_state_names(void **state)
{
	(void)state;
	assert_string_equal(padlock_state_name(PADLOCK_ABSENT), "absent");
	assert_string_equal(padlock_state_name(PADLOCK_PRESENT), "present");
	assert_string_equal(padlock_state_name(PADLOCK_ENABLED), "enabled");
	assert_string_equal(padlock_state_name((enum padlock_state)7), "?");
}

/* ---- Key=value output */

#define KV_MAX	40

struct kv_log {
	unsigned n;
	char line[KV_MAX][80];
};

static void kv_collect(void *ctx, const char *key, const char *value)
{
	struct kv_log *log = ctx;

	assert_true(log->n < KV_MAX);
	snprintf(log->line[log->n++], sizeof(log->line[0]), "%s=%s", key, value);
}

static void test_kv_order_and_values(void **state)
{
	static const char *const want[] = {
		"vendor=CentaurHauls", "family=6", "model=15", "stepping=2",
		"brand=VIA Nano", "cmov=1", "sse2=1", "aesni=0", "rdrand=0",
		"rdseed=0", "padlock.rng=enabled", "padlock.ace=present",
		"padlock.ace2=absent", "padlock.phe=enabled",
		"padlock.pmm=absent", "padlock.phe2=enabled",
	};
	struct cpu_info ci = { 0 };
	struct kv_log log = { 0 };
	unsigned k;
	bool found = false;

	(void)state;
	strcpy(ci.vendor, "CentaurHauls");
	strcpy(ci.brand, "VIA Nano");
	ci.family = 6;
	ci.model = 15;
	ci.stepping = 2;
	ci.cmov = ci.sse2 = true;
	ci.rng = PADLOCK_ENABLED;
	ci.ace = PADLOCK_PRESENT;
	ci.phe = PADLOCK_ENABLED;
	ci.phe2 = PADLOCK_ENABLED;
	ci.centaur_edx = 0x00070DCC;
	cpuid_kv(&ci, kv_collect, &log);

	assert_true(log.n >= sizeof(want) / sizeof(want[0]));
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		assert_string_equal(log.line[k], want[k]);
	for (k = 0; k < log.n; k++)
		if (strcmp(log.line[k], "centaur_edx=0x00070dcc") == 0)
			found = true;
	assert_true(found);
}

/* ---- Dump parser */

static struct cpuid_dump dump;	/* 3 KB: keep it off the stack */

static void test_parse_formats(void **state)
{
	const char *text =
		"------[ Logical CPU #0 ]------\r\n"
		"CPUID 00000000: 00000001-746E6543-736C7561-48727561\r\n"
		"CPUID 00000001 00000698-00000000-00000000-0381b93f\n"
		"CPUID 80000000:\t80000004-00000000-00000000-00000000 [x]  \n"
		"CPUID C0000001: 00000000-00000000-00000000-000000DD";
	struct cpuid_regs r;
	unsigned line = 99;

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, text, strlen(text), &line), 0);
	assert_int_equal(line, 0);
	assert_int_equal(dump.n, 4);
	assert_true(cpuid_dump_query(&dump, 1, 0, &r));
	assert_int_equal(r.eax, 0x698);
	assert_int_equal(r.edx, 0x0381B93F);
	assert_true(cpuid_dump_query(&dump, 0x80000000, 0, &r));
	assert_int_equal(r.eax, 0x80000004);
	assert_true(cpuid_dump_query(&dump, 0xC0000001, 0, &r));
	assert_int_equal(r.edx, 0xDD);
	assert_false(cpuid_dump_query(&dump, 0xC0000000, 0, &r));
	assert_false(cpuid_dump_query(&dump, 1, 1, &r));
}

/* Only the first len bytes count: the text need not be NUL-terminated. */
static void test_parse_respects_len(void **state)
{
	const char *text =
		"CPUID 00000000: 00000001-746E6543-736C7561-48727561\n"
		"CPUID 00000001: 00000698-00000000-00000000-0381B93F\n";

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, text, 52, NULL), 0);
	assert_int_equal(dump.n, 1);
	/* cut inside the second record: now malformed */
	assert_int_equal(cpuid_dump_parse(&dump, text, 90, NULL),
			 CPUID_DUMP_EFORMAT);
}

static void test_parse_ignores_prose(void **state)
{
	const char *text =
		"Program Version : EVEREST v4.60.1628 Beta\n"
		"CPUID Manufacturer : CentaurHauls\n"
		"CPUID CPU Name     : VIA Nehemiah\n"
		"CPUID Revision     : 00000698h\n"
		"CPUID\n"
		"CPUIDS 00000000: junk\n"
		"\n"
		"CPUID 00000000: 00000001-746E6543-736C7561-48727561\n"
		"MSR 0000002A: 0000-0000-C0C4-0000\n";

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, text, strlen(text), NULL), 0);
	assert_int_equal(dump.n, 1);
	assert_int_equal(dump.e[0].leaf, 0);
}

static void test_parse_malformed(void **state)
{
	static const char *const bad[] = {
		"CPUID 0000001: 00000001-00000000-00000000-00000000",
		"CPUID 000000001: 00000001-00000000-00000000-00000000",
		"CPUID 00000001: 00000001-00000000-00000000",
		"CPUID 00000001: 00000001-00000000-00000000-0000000",
		"CPUID 00000001: 00000001-00000000-00000000-000000000",
		"CPUID 00000001: 00000001 00000000-00000000-00000000",
		"CPUID 00000001: 00000001-00000000-00000000-0000000G",
		"CPUID 00000001: 00000001-00000000-00000000-00000000 junk",
		"CPUID 00000001: 00000001-00000000-00000000-00000000 [open",
		"CPUID 00000001:",
		"CPUID 00000001",
	};
	char text[256];
	unsigned k, line;

	(void)state;
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		snprintf(text, sizeof(text), "header\n"
			 "CPUID 00000000: 00000001-746E6543-736C7561-48727561\n"
			 "%s\nCPUID 80000000: 80000000-0-0-0\n", bad[k]);
		line = 0;
		assert_int_equal(cpuid_dump_parse(&dump, text, strlen(text),
						  &line), CPUID_DUMP_EFORMAT);
		assert_int_equal(line, 3);
	}
}

static const char two_cpus[] =
	"------[ Logical CPU #0 ]------\n"
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]\n"
	"CPUID 00000004: 1C004121-01C0003F-0000003F-00000000\n"
	"CPUID 00000004: 1C004122-01C0003F-0000003F-00000000\n"
	"CPUID 00000004: 1C004143-01C0003F-000001FF-00000000\n"
	"CPUID 0000000B: 00000001-00000002-00000100-00000000\n"
	"------[ Logical CPU #1 ]------\n"
	"CPUID 00000002: 76035A01-00F0B2FF-00000000-00CA0000\n"
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]\n"
	"CPUID 0000000B: 00000001-00000002-00000100-00000001\n";

static void test_parse_subleaves_and_first_cpu(void **state)
{
	struct cpuid_regs r;

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, two_cpus, strlen(two_cpus),
					  NULL), 0);
	assert_int_equal(dump.n, 5);
	assert_true(cpuid_dump_query(&dump, 4, 2, &r));
	assert_int_equal(r.eax, 0x1C004143);
	assert_int_equal(dump.e[3].subleaf, 2);
	assert_false(cpuid_dump_query(&dump, 4, 3, &r));
	assert_true(cpuid_dump_query(&dump, 0xB, 0, &r));
	assert_int_equal(r.edx, 0);	/* CPU #0's x2APIC id, not #1's */
	assert_false(cpuid_dump_query(&dump, 2, 0, &r));	/* CPU #1 only */
}

/* A second CPU without a section marker: leaf 0 comes back. */
static void test_parse_second_cpu_without_marker(void **state)
{
	const char *text =
		"CPUID 00000000: 00000001-68747541-444D4163-69746E65\n"
		"CPUID 00000001: 000005A2-00000400-00000000-0088A93D\n"
		"CPUID 00000000: 00000001-68747541-444D4163-69746E65\n"
		"CPUID 00000001: 000005A2-01000400-00000000-0088A93D\n"
		"CPUID 00000001: this line is never read\n";
	struct cpuid_regs r;

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, text, strlen(text), NULL), 0);
	assert_int_equal(dump.n, 2);
	assert_true(cpuid_dump_query(&dump, 1, 0, &r));
	assert_int_equal(r.ebx, 0x400);
}

static void test_parse_empty(void **state)
{
	unsigned line = 99;

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, "", 0, &line),
			 CPUID_DUMP_EEMPTY);
	assert_int_equal(line, 0);
	assert_int_equal(cpuid_dump_parse(&dump, "text\n", 5, &line),
			 CPUID_DUMP_EEMPTY);
}

static void test_parse_full(void **state)
{
	static char text[(CPUID_DUMP_MAX + 1) * 64];
	size_t len = 0;
	unsigned k, line = 0;

	(void)state;
	for (k = 0; k <= CPUID_DUMP_MAX; k++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"CPUID %08X: 00000000-00000000-00000000-00000000\n", k);
	assert_int_equal(cpuid_dump_parse(&dump, text, len, &line),
			 CPUID_DUMP_EFULL);
	assert_int_equal(line, CPUID_DUMP_MAX + 1);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(cpuid_dump_strerror(CPUID_DUMP_EFORMAT),
			    "malformed CPUID line");
	assert_string_equal(cpuid_dump_strerror(-42), "unknown error");
}

/* Parser + decoder together, on an inline C3 Nehemiah dump. */
static void test_decode_dump(void **state)
{
	const char *text =
		"CPUID 00000000: 00000001-746E6543-736C7561-48727561\n"
		"CPUID 00000001: 00000698-00000000-00000000-0381B93F\n"
		"CPUID 80000000: 80000006-00000000-00000000-00000000\n"
		"CPUID 80000002: 20414956-6568654E-6861696D-00000000\n"
		"CPUID 80000003: 00000000-00000000-00000000-00000000\n"
		"CPUID 80000004: 00000000-00000000-00000000-00000000\n"
		"CPUID C0000000: C0000001-00000000-00000000-00000000\n"
		"CPUID C0000001: 00000000-00000000-00000000-000000DD\n";
	struct cpu_info ci;

	(void)state;
	assert_int_equal(cpuid_dump_parse(&dump, text, strlen(text), NULL), 0);
	cpuid_decode(&ci, cpuid_dump_query, &dump);
	assert_string_equal(ci.vendor, "CentaurHauls");
	assert_string_equal(ci.brand, "VIA Nehemiah");
	assert_int_equal(ci.model, 9);
	assert_int_equal(ci.stepping, 8);
	assert_int_equal(ci.rng, PADLOCK_ENABLED);
	assert_int_equal(ci.ace, PADLOCK_ENABLED);
	assert_int_equal(ci.ace2, PADLOCK_ABSENT);
	assert_int_equal(ci.phe, PADLOCK_ABSENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_aes_rdrand),
		cmocka_unit_test(test_leaf7_needs_max_leaf),
		cmocka_unit_test(test_intel_ignores_centaur_leaves),
		cmocka_unit_test(test_amd_geode_like),
		cmocka_unit_test(test_family_model_rules),
		cmocka_unit_test(test_centaur_states),
		cmocka_unit_test(test_zhaoxin_vendor),
		cmocka_unit_test(test_centaur_max_leaf_checked),
		cmocka_unit_test(test_centaur_without_leaf),
		cmocka_unit_test(test_brand_trimmed),
		cmocka_unit_test(test_brand_full_length),
		cmocka_unit_test(test_brand_needs_ext_leaves),
		cmocka_unit_test(test_no_answers),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_kv_order_and_values),
		cmocka_unit_test(test_parse_formats),
		cmocka_unit_test(test_parse_respects_len),
		cmocka_unit_test(test_parse_ignores_prose),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_parse_subleaves_and_first_cpu),
		cmocka_unit_test(test_parse_second_cpu_without_marker),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_parse_full),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_decode_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
