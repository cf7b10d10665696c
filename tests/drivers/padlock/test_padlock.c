/*
 * padlock_test: the PadLock driver (drivers/padlock) against the emulated
 * VIA CPUs of tests/drivers/padlock/padlock_emu.c, as an i386 program under qemu-i386.
 *
 * For each CPU profile with PadLock (C3 Nehemiah, C7 Esther, Nano Isaiah,
 * Zhaoxin KX-7000): detection and the exact engines and triples registered
 * (CTR built from ECB everywhere), every AES KAT of lib/vectors/kat.h over
 * every claimed triple, the cross-check against the software engine, the
 * SHA KATs and cross-check, and the driver's own TAP tests (RNG status, PMM
 * known answer, work-buffer wipe, the hardware CTR probe). The C3 Samuel 2
 * gives the absent case. Then present-but-disabled units and the enable
 * MSRs by vendor string, one test per quirk (with the driver's handling
 * the result is right; with it switched off (padlock_quirks) the emulator
 * shows the failure it prevents), the key reload on every change of key,
 * control word, mode or key generation, the PHE's empty message, and the
 * model's behaviours against the sources (with the strict option's old
 * checks, labelled not documented behaviour).
 *
 * Prints TAP version 13. Needs $CQ_SHARED/data/cpuid (default ../shared):
 * without it, `1..0 # SKIP`.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/padlock/padlock.h"
#include "drivers/padlock/padlock_int.h"
#include "kernel/run/driver_run.h"
#include "drivers/padlock/padlock_insn.h"
#include "drivers/padlock/padlock_reg.h"
#include "kernel/run/report.h"
#include "lib/crypto/aes.h"
#include "lib/engine/engine.h"
#include "lib/vectors/kat.h"
#include "lib/crypto/montmul.h"
#include "lib/crypto/sha.h"
#include "tests/host/hw_host.h"
#include "tests/host/console_host.h"
#include "tests/drivers/padlock/emu_tap.h"
#include "tests/drivers/padlock/padlock_emu.h"

#define PAGE		4096
#define HASH_CAP	(KAT_MILLION_A + 64)

static uint8_t xc_in[XC_MAX_BYTES] __attribute__((aligned(64)));
static uint8_t xc_out[XC_MAX_BYTES] __attribute__((aligned(64)));
static uint8_t xc_ref_out[XC_MAX_BYTES] __attribute__((aligned(64)));
static uint8_t hash_buf[HASH_CAP] __attribute__((aligned(64)));
static struct aes_session sess, ref_sess;
static struct cpu_info cpu;
static uint8_t *guarded;	/* PAGE bytes, then a PROT_NONE page */

/* ---- set-up ---- */

static bool setup(enum emu_profile p, const struct emu_options *o)
{
	memset(&padlock_quirks, 0, sizeof(padlock_quirks));
	if (emu_select(p, o) != 0)
		return false;
	engine_registry_reset();
	engine_register_software();
	console_host_clear();
	emu_cpu_info(&cpu);
	padlock_probe(&cpu);
	driver_flush_log(&padlock_driver);	/* the probe's log, as the run prints it */
	return true;
}

/* Whether the console holds needle, the driver's log printed first. */
static bool text_has(const char *needle)
{
	driver_flush_log(&padlock_driver);
	return strstr(console_host_text(), needle) != NULL;
}

/* The driver's probe as the run makes it (driver_run_probe): promised units get their lines. */
static void probe_through_run(void)
{
	struct cpu_info ci;
	struct driver_facts f = { &ci, NULL, 0, false };

	emu_cpu_info(&ci);
	driver_run_probe(&padlock_driver, &f);
}

static void note(void *ctx, const char *line)
{
	(void)ctx;
	t_diag("  %s", line);
}

static struct kat_buffers buffers(void)
{
	struct kat_buffers b = { &sess, &ref_sess, xc_in, xc_out, xc_ref_out, XC_MAX_BYTES };
	return b;
}

/* ---- per profile ---- */

struct expect {
	bool ace, ace2, phe, phe_blocks, rng, pmm;
};

/* CTR is claimed wherever the ACE is: built from ECB, not ACE2's rep xcrypt-ctr. */
static const struct expect expects[EMU_PROFILES] = {
	[EMU_NEHEMIAH] = { .ace = true, .rng = true },
	[EMU_ESTHER] = { .ace = true, .ace2 = true, .phe = true, .rng = true, .pmm = true },
	[EMU_ISAIAH] = { .ace = true, .phe = true, .phe_blocks = true, .rng = true },	/* ACE2 disabled, no PMM */
	[EMU_ZHAOXIN] = { .ace = true, .phe = true, .phe_blocks = true, .rng = true, .pmm = true },	/* ACE2 disabled */
};

static void test_registration(enum emu_profile p, const struct aes_engine *ace)
{
	const struct expect *x = &expects[p];
	const char *pn = emu_profile_name(p);
	uint32_t want = 0;
	unsigned k, nrng = 0, i;
	bool exact = ace != NULL;
	const struct hash_engine *h1 = engine_hash_find("padlock-phe", HASH_SHA1);
	const struct hash_engine *h256 = engine_hash_find("padlock-phe", HASH_SHA256);

	for (i = AES_MODE_ECB; i <= AES_MODE_OFB; i++)
		want |= AES_TRIPLE_BIT(i, AES_DIR_ENCRYPT) | AES_TRIPLE_BIT(i, AES_DIR_DECRYPT);
	want |= AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_ENCRYPT) |
		AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_DECRYPT);
	for (k = 0; ace && k < AES_KEYSIZES; k++)
		exact &= ace->supported[k] == want;
	t_ok(exact && engine_emulated(ace->name) && strstr(ace->description, "CTR from rep xcrypt-ecb"),
	     "%s: padlock-ace claims exactly ECB/CBC/CFB128/OFB/CTR (CTR from ECB%s) x 128/192/256 x encrypt/decrypt",
	     pn, x->ace2 ? ", not ACE2's rep xcrypt-ctr" : "");
	t_ok((h1 != NULL) == x->phe && (h256 != NULL) == x->phe &&
	     (!h1 || (strstr(h1->description, "block mode") != NULL) == x->phe_blocks),
	     "%s: padlock-phe %s", pn,
	     !x->phe ? "not registered (no PHE)" : x->phe_blocks ? "sha1+sha256 in block mode"
								: "sha1+sha256 one-shot");
	for (i = 0; i < engine_rng_count(); i++)
		nrng += strncmp(engine_rng(i)->name, "padlock-xstore/div", 18) == 0;
	t_ok(nrng == (x->rng ? 4u : 0u) && engine_rng_find("padlock-xstore/div3") != NULL,
	     "%s: RNG sources padlock-xstore/div0..div3 registered", pn);
}

static void test_aes_kats(enum emu_profile p, const struct aes_engine *ace)
{
	const struct aes_engine *sw = engine_aes_find("software");
	const char *pn = emu_profile_name(p);
	struct kat_buffers b = buffers();
	struct kat_result r, x;
	unsigned k, d, m, run, bad, xrun, xbad;
	int rc;

	for (m = AES_MODE_ECB; m < AES_MODE_COUNT; m++) {
		run = bad = xrun = xbad = 0;
		if (!aes_engine_supports(ace, 128, m, AES_DIR_ENCRYPT)) {
			rc = aes_engine_oneshot(ace, 128, xc_in, m, AES_DIR_ENCRYPT, xc_ref_out,
						xc_in, xc_out, 16);
			t_ok(rc == ENGINE_EUNSUPPORTED, "%s: %s not claimed: crypt returns %d (unsupported)",
			     pn, aes_mode_name(m), rc);
			continue;
		}
		for (k = 0; k < AES_KEYSIZES; k++)
			for (d = 0; d < AES_DIR_COUNT; d++) {
				memset(&r, 0, sizeof(r));
				kat_aes_run(ace, aes_keysize_bits(k), m, d, &b, note, NULL, &r);
				run += r.run;
				bad += r.failed;
				memset(&x, 0, sizeof(x));
				xc_aes_run(ace, sw, aes_keysize_bits(k), m, d, 0xC0FFEE + k, &b, note,
					   NULL, &x);
				xrun += x.run;
				xbad += x.failed;
			}
		t_ok(run > 0 && bad == 0, "%s: AES KATs %s (FIPS-197, SP 800-38A), 3 key sizes x 2 directions: %u run, %u failed",
		     pn, aes_mode_name(m), run, bad);
		t_ok(xrun > 0 && xbad == 0, "%s: cross-check %s against the software engine, 16..16384 bytes: %u run, %u failed",
		     pn, aes_mode_name(m), xrun, xbad);
	}
}

static void test_hash(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);
	struct kat_result r, x;
	unsigned a;

	for (a = 0; a < HASH_ALG_COUNT; a++) {
		const struct hash_engine *h = engine_hash_find("padlock-phe", a);
		const struct hash_engine *sw = engine_hash_find("software", a);
		if (!h)
			continue;
		memset(&r, 0, sizeof(r));
		kat_hash_run(h, hash_buf, sizeof(hash_buf), note, NULL, &r);
		t_ok(r.run == KAT_HASH_PER_ALG && r.failed == 0, "%s: %s KATs (FIPS 180-2, incl. one million 'a'): %u run, %u failed",
		     pn, hash_alg_name(a), r.run, r.failed);
		memset(&x, 0, sizeof(x));
		xc_hash_run(h, sw, 0xBEEF, hash_buf, sizeof(hash_buf), note, NULL, &x);
		t_ok(x.run > 0 && x.failed == 0, "%s: %s cross-check against lib/crypto/sha, 0..16384 bytes: %u run, %u failed",
		     pn, hash_alg_name(a), x.run, x.failed);
	}
}

static void test_driver_tests(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);
	unsigned bad = report_not_ok(), good = report_ok(), skipped = report_skipped();
	const struct expect *x = &expects[p];

	console_host_clear();
	driver_run_tests(&padlock_driver);
	t_diag_lines(console_host_text());
	t_ok(report_not_ok() == bad && report_ok() - good == 2u + 4u * x->rng + x->pmm + x->ace2 &&
	     report_skipped() - skipped == 4u * !x->rng + !x->pmm + !x->ace2,
	     "%s: padlock_tests(): detection, 4 RNG status tests, PMM KAT%s, work-buffer wipe, CTR probe%s all ok",
	     pn, x->pmm ? "" : " (skipped: no PMM)", x->ace2 ? "" : " (skipped: ACE2 not enabled)");
	t_ok(!x->ace2 || (text_has("ok ") && text_has(" - padlock: ace2 hardware ctr probe (rep xcrypt-ctr, counter format unverified) # finding: passed\n") &&
			  text_has("# @finding driver=padlock test=padlock:\\x20ace2\\x20hardware") &&
			  text_has(" outcome=passed detail=F.5.1\\x20matches,\\x20counter\\x20wraps\\x20at\\x2032\\x20bits t=")),
	     "%s: the hardware CTR probe %s", pn,
	     x->ace2 ? "reports what the model's rep xcrypt-ctr did as a finding (F.5.1, 32-bit wrap)" : "is skipped (ACE2 not enabled)");
}

struct step_ctx {
	enum emu_profile p;
	void (*fn)(enum emu_profile p);
};

static void step_trampoline(void *ctx)
{
	struct step_ctx *c = ctx;
	c->fn(c->p);
}

static void run_aes_kats(enum emu_profile p)
{
	test_aes_kats(p, engine_aes_find("padlock-ace"));
}

static void run_hash(enum emu_profile p)
{
	test_hash(p);
}

static void run_driver_tests(enum emu_profile p)
{
	test_driver_tests(p);
}

/* A group of tests under the emulator's guard: an exception is a failure,
 * not the end of the program. */
static void step(enum emu_profile p, const char *what, void (*fn)(enum emu_profile p))
{
	struct step_ctx c = { p, fn };
	int exc = emu_guard(step_trampoline, &c);
	if (exc != EMU_EXC_NONE)
		t_ok(false, "%s: %s ended by an exception: %s", emu_profile_name(p), what,
		     emu_last_fault());
}

static void test_profile(enum emu_profile p)
{
	const struct aes_engine *ace;
	const struct emu_stats *st;
	const char *pn = emu_profile_name(p);

	if (!setup(p, NULL)) {
		t_ok(false, "%s: profile loads", pn);
		return;
	}
	t_diag("---- %s (%s) ----", pn, emu_profile_cpu(p));
	t_diag_lines(console_host_text());
	ace = engine_aes_find("padlock-ace");
	t_ok(padlock_absent_reason() == NULL && ace, "%s: PadLock detected, padlock-ace registered", pn);
	if (!ace)
		return;
	test_registration(p, ace);
	step(p, "AES KATs and cross-check", run_aes_kats);
	step(p, "SHA KATs and cross-check", run_hash);
	step(p, "padlock_tests()", run_driver_tests);
	st = emu_stats();
	t_diag("%s: emulator: %lu xcrypt, %lu key loads, %lu reloads, %lu xstore (%lu empty), %lu xsha, %lu montmul, %lu bytes prefetched past inputs",
	       pn, st->xcrypt, st->key_loads, st->reloads, st->xstore, st->xstore_empty, st->xsha,
	       st->montmul, st->overread_bytes);
	t_ok(st->xcrypt > 0 && st->reloads > 0 && st->key_loads > 0 && st->key_loads <= st->reloads + 1 &&
	     st->faults == 0,
	     "%s: the driver reloaded the key before each key change (%lu loads, %lu reloads), no fault",
	     pn, st->key_loads, st->reloads);
}

static void test_absent(void)
{
	if (!setup(EMU_SAMUEL2, NULL)) {
		t_ok(false, "samuel2: profile loads");
		return;
	}
	t_diag("---- samuel2 (C3 Samuel 2, no PadLock) ----");
	t_diag_lines(console_host_text());
	t_ok(padlock_absent_reason() && strstr(padlock_absent_reason(), "no VIA PadLock on this CPU") &&
	     strstr(padlock_absent_reason(), "CentaurHauls leaf") && !engine_aes_find("padlock-ace") &&
	     !engine_rng_find("padlock-xstore/div0") && !engine_hash_find("padlock-phe", HASH_SHA1),
	     "samuel2: no PadLock, nothing registered: %s", padlock_absent_reason());
	console_host_clear();
	driver_run_tests(&padlock_driver);
	t_diag_lines(console_host_text());
	t_ok(!text_has("not ok") && text_has("# SKIP no VIA PadLock on this CPU"),
	     "samuel2: padlock_tests() prints only # SKIP lines with the reason");
}

/* ---- present but disabled ---- */

static void xsha1_direct(void *ctx)
{
	static uint32_t state[PHE_STATE_BYTES / 4] __attribute__((aligned(16)));
	(void)ctx;
	padlock_xsha1("abc", state, 0, 3);
}

static void ctr_direct(void *ctx)
{
	static uint8_t blk[64] __attribute__((aligned(16)));
	static uint32_t cw[4] __attribute__((aligned(16))) = { 10 };
	(void)ctx;
	padlock_xcrypt_ctr(blk, blk, blk, cw, blk + 16, 1);
}

static void test_disabled(void)
{
	struct emu_options o;
	int exc;

	memset(&o, 0, sizeof(o));
	o.model.ace_disabled = true;
	setup(EMU_NEHEMIAH, &o);
	t_diag_lines(console_host_text());
	t_ok((emu_msr_fcr() & FCR_ACE_ENABLE) && engine_aes_find("padlock-ace") &&
	     text_has("ACE was present but disabled: enabled it by setting MSR 0x1107") &&
	     text_has("ACE now enabled"),
	     "nehemiah: present-but-disabled ACE enabled through FCR 0x1107 bit 28, and reported");

	memset(&o, 0, sizeof(o));
	o.model.rng_disabled = true;
	setup(EMU_ESTHER, &o);
	t_diag_lines(console_host_text());
	t_ok((emu_msr_rng() & RNG_MSR_ENABLE) && engine_rng_find("padlock-xstore/div0") &&
	     text_has("RNG was present but disabled: enabled it by setting MSR 0x110B") &&
	     text_has("RNG now enabled"),
	     "esther: present-but-disabled RNG enabled through MSR 0x110B bit 6, and reported");

	memset(&o, 0, sizeof(o));
	o.model.rng_disabled = true;
	setup(EMU_ISAIAH, &o);
	t_diag_lines(console_host_text());
	console_host_clear();
	probe_through_run();
	driver_run_tests(&padlock_driver);
	t_ok(!engine_rng_find("padlock-xstore/div0") &&
	     text_has(" - padlock: rng enabled: RNG present but disabled: rdmsr 0x110B faulted, left disabled\n") &&
	     text_has("PadLock RNG present but disabled"),
	     "isaiah: a disabled RNG on the Nano (no RNG MSR) stays disabled: no source, the promised RNG not ok");

	memset(&o, 0, sizeof(o));
	o.model.phe_disabled = true;
	setup(EMU_ESTHER, &o);
	exc = emu_guard(xsha1_direct, NULL);
	t_ok(!engine_hash_find("padlock-phe", HASH_SHA1) && exc == EMU_EXC_UD,
	     "esther: disabled PHE: no hash engine, and rep xsha1 raises #UD (%s)", emu_last_fault());

	/* The enable MSRs by vendor string, as Linux: CentaurHauls family 7
	 * (the real KX-7000) through 0x1107 / 0x110B, never 0x1257. */
	memset(&o, 0, sizeof(o));
	o.model.ace_disabled = o.model.rng_disabled = true;
	setup(EMU_ZHAOXIN, &o);
	t_diag_lines(console_host_text());
	t_ok((emu_msr_fcr() & FCR_ACE_ENABLE) && (emu_msr_rng() & RNG_MSR_ENABLE) &&
	     emu_stats()->msr_writes[2] == 0 && engine_aes_find("padlock-ace") &&
	     engine_rng_find("padlock-xstore/div0") &&
	     text_has("ACE was present but disabled: enabled it by setting MSR 0x1107 bit 28") &&
	     text_has("RNG was present but disabled: enabled it by setting MSR 0x110B bit 6"),
	     "zhaoxin (KX-7000, CentaurHauls family 7): disabled ACE and RNG enabled through FCR 0x1107 bit 28 and MSR 0x110B bit 6, as Linux's init_c3; MSR 0x1257 not written");

	memset(&o, 0, sizeof(o));
	o.model.ace_disabled = o.model.rng_disabled = true;
	setup(EMU_SHANGHAI, &o);
	t_diag_lines(console_host_text());
	t_ok(emu_msr_fcr() == (FCR57_ACE_ENABLE | FCR57_RNG_ENABLE) && engine_aes_find("padlock-ace") &&
	     emu_stats()->msr_writes[0] == 0 && emu_stats()->msr_writes[1] == 0 &&
	     engine_rng_find("padlock-xstore/div0") && text_has("MSR 0x1257") &&
	     strstr(engine_hash_find("padlock-phe", HASH_SHA1)->description, "block mode"),
	     "shanghai (\"  Shanghai  \"): disabled ACE and RNG enabled through MSR 0x1257 bits 7 and 8 only, as Linux's zhaoxin.c; PHE block mode");

	/* An enable write that does not stick: the notes must say it failed, not "enabled it". */
	memset(&o, 0, sizeof(o));
	o.model.faults |= PADLOCK_MODEL_FAULT_ACE_LOCKED;
	setup(EMU_ESTHER, &o);
	t_diag_lines(console_host_text());
	t_ok(!(emu_msr_fcr() & FCR_ACE_ENABLE) && !engine_aes_find("padlock-ace") &&
	     text_has("padlock: ACE was present but disabled: tried to enable it by setting MSR 0x1107 bit 28 (0x0 -> 0x10000000); the unit is still disabled: the bit did not stick, MSR 0x1107 reads 0x0 (ACE now present-but-disabled)") &&
	     !text_has("enabled it by setting"),
	     "esther, ACE locked: FCR 0x1107 bit 28 does not stick; the probe says the attempt failed, not that it enabled ACE");
	/*
	 * CPUID lists ACE, its documented enable did not take: a promised
	 * unit, not ok with the failed enable as the reason (expect=none: a
	 * SKIP that says so); the detection test repeats the note.
	 */
	{
		console_host_clear();
		probe_through_run();
		driver_run_tests(&padlock_driver);
		t_diag_lines(console_host_text());
		t_ok(text_has("not ok ") &&
		     text_has(" - padlock: ace enabled: ACE was present but disabled: tried to enable it by setting MSR 0x1107 bit 28 (0x0 -> 0x10000000); the unit is still disabled: the bit did not stick, MSR 0x1107 reads 0x0\n") &&
		     text_has(" - padlock: units detected and enabled (rng=enabled ace=present-but-disabled ace2=enabled phe=enabled pmm=enabled, 7 engines; ACE was present but disabled: "),
		     "esther, ACE locked: the promised ACE is not ok with the failed enable as the reason; the detection test repeats it");
		console_host_clear();
		driver_run_expect_none(true);
		probe_through_run();
		driver_run_expect_none(false);
		t_diag_lines(console_host_text());
		t_ok(!text_has("not ok ") &&
		     text_has(" - padlock: ace enabled (promised unit not expected: expect=none) # SKIP ACE was present but disabled: "),
		     "esther, ACE locked, expect=none: the promised ACE is a SKIP that says so");
	}

	memset(&o, 0, sizeof(o));
	o.model.faults |= PADLOCK_MODEL_FAULT_ACE_LOCKED;
	setup(EMU_SHANGHAI, &o);
	t_diag_lines(console_host_text());
	t_ok(!engine_aes_find("padlock-ace") && engine_rng_find("padlock-xstore/div0") &&
	     text_has("ACE was present but disabled: tried to enable it by setting MSR 0x1257 bit 7 (") &&
	     text_has("the unit is still disabled: the bit did not stick, MSR 0x1257 reads 0x"),
	     "shanghai (synthetic), ACE locked: MSR 0x1257 bit 7 does not stick, reported as a failed attempt");

	setup(EMU_ISAIAH, NULL);
	exc = emu_guard(ctr_direct, NULL);
	t_ok(exc == EMU_EXC_UD, "isaiah: ACE2 present but disabled (CPUID bit 9 clear): CTR not claimed, rep xcrypt-ctr raises #UD (%s)", emu_last_fault());
}

/* ---- quirks ---- */

static const uint8_t key1[32] = "0123456789abcdefghijklmnopqrstu";
static const uint8_t key2[32] = "ZYXWVUTSRQPONMLKJIHGFEDCBA98765";
static uint8_t pt[64] __attribute__((aligned(16))) = "sixty-four bytes of plaintext for the quirk tests of the driver!";

/* What the software engine gives. */
static void expected(unsigned bits, const uint8_t *key, enum aes_mode m, enum aes_dir d,
		     const uint8_t *iv0, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t iv[16];
	memcpy(iv, iv0, 16);
	aes_engine_oneshot(engine_aes_find("software"), bits, key, m, d, iv, in, out, len);
}

struct reload_case {
	unsigned bits;
	bool ok;
};

/* Two keys, then a change of direction, through the same static session
 * of aes_engine_oneshot (the key buffer address does not change). */
static void reload_run(void *ctx)
{
	struct reload_case *c = ctx;
	const struct aes_engine *e = engine_aes_find("padlock-ace");
	uint8_t out[64], want[64], iv[16] = { 0 };

	c->ok = true;
	aes_engine_oneshot(e, c->bits, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, pt, out, 64);
	expected(c->bits, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, iv, pt, want, 64);
	c->ok &= memcmp(out, want, 64) == 0;
	aes_engine_oneshot(e, c->bits, key2, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, pt, out, 64);
	expected(c->bits, key2, AES_MODE_ECB, AES_DIR_ENCRYPT, iv, pt, want, 64);
	c->ok &= memcmp(out, want, 64) == 0;
	aes_engine_oneshot(e, c->bits, key2, AES_MODE_CBC, AES_DIR_DECRYPT, iv, pt, out, 64);
	memset(iv, 0, 16);
	expected(c->bits, key2, AES_MODE_CBC, AES_DIR_DECRYPT, iv, pt, want, 64);
	c->ok &= memcmp(out, want, 64) == 0;
}

static void test_quirk_reload(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);
	struct reload_case c;
	unsigned i, bits[2] = { 128, 256 };
	int exc;

	for (i = 0; i < 2; i++) {
		setup(p, NULL);
		c.bits = bits[i];
		exc = emu_guard(reload_run, &c);
		t_ok(exc == EMU_EXC_NONE && c.ok, "%s: key cache, AES-%u: key change and direction change give the right output with the reload",
		     pn, bits[i]);
		setup(p, NULL);
		padlock_quirks.no_reload = true;
		exc = emu_guard(reload_run, &c);
		t_ok(exc == EMU_EXC_NONE && !c.ok && emu_stats()->key_loads == 1,
		     "%s: key cache, AES-%u: without the reload (no_reload) the stale key gives wrong output",
		     pn, bits[i]);
	}
}

/* ---- key reload on every change of key, control word or mode ---- */

static struct aes_session sa, sb;

struct op {
	struct aes_session *s;
	const uint8_t *key;
	enum aes_mode mode;
	enum aes_dir dir;
	bool rekey;		/* set_key(s, key) again first, without a release */
};

struct reload_seq {
	const char *what;
	const struct op *ops;
	unsigned nops;
	unsigned bits;
	unsigned bad;		/* operations whose output differed from software */
	int rc;
};

/* Runs the operations in order, each on 64 bytes, against the software engine. */
static void reload_seq_run(void *ctx)
{
	struct reload_seq *q = ctx;
	const struct aes_engine *e = engine_aes_find("padlock-ace");
	uint8_t out[64], want[64], iv[16], iv_sw[16];
	unsigned i;

	q->bad = 0;
	q->rc = e->set_key(&sa, key1, q->bits);
	if (q->rc == 0)
		q->rc = e->set_key(&sb, key2, q->bits);
	sa.engine = sb.engine = e;
	sa.key_bits = sb.key_bits = q->bits;
	for (i = 0; i < q->nops && q->rc == 0; i++) {
		const struct op *o = &q->ops[i];
		if (o->rekey) {
			q->rc = e->set_key(o->s, o->key, q->bits);
			o->s->engine = e;
			o->s->key_bits = q->bits;
		}
		memset(iv, (int)(0x40 + i), 16);
		memcpy(iv_sw, iv, 16);
		q->rc = e->crypt(o->s, o->mode, o->dir, o->mode == AES_MODE_ECB ? NULL : iv, pt, out, 64);
		expected(q->bits, o->key, o->mode, o->dir, iv_sw, pt, want, 64);
		q->bad += memcmp(out, want, 64) != 0;
	}
	e->release(&sa);
	e->release(&sb);
}

/*
 * The three cases the issue names, each for AES-128 and AES-256: two
 * sessions interleaved (the key changes), encrypt then decrypt on one
 * session (the control word changes), mode changes on one key (ECB after
 * CFB and after OFB: only the mode changes), and a session re-keyed in
 * place (only the key generation changes). With the reload the output
 * matches software; the negative control (no_reload) shows the model
 * catches a missing one. Weakening any one comparison of ace_load()
 * makes one of these fail.
 */
static void test_reload_matrix(enum emu_profile p)
{
	static const struct op interleaved[] = {
		{ &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false }, { &sb, key2, AES_MODE_ECB, AES_DIR_ENCRYPT, false },
		{ &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false }, { &sb, key2, AES_MODE_CBC, AES_DIR_DECRYPT, false },
		{ &sa, key1, AES_MODE_CBC, AES_DIR_DECRYPT, false }, { &sb, key2, AES_MODE_CFB128, AES_DIR_ENCRYPT, false },
		{ &sa, key1, AES_MODE_CFB128, AES_DIR_ENCRYPT, false },
	};
	static const struct op enc_dec[] = {
		{ &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_ECB, AES_DIR_DECRYPT, false },
		{ &sa, key1, AES_MODE_CBC, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_CBC, AES_DIR_DECRYPT, false },
		{ &sa, key1, AES_MODE_CFB128, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_CFB128, AES_DIR_DECRYPT, false },
		{ &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false },
	};
	static const struct op modes[] = {
		{ &sa, key1, AES_MODE_CFB128, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false },
		{ &sa, key1, AES_MODE_OFB, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false },
		{ &sa, key1, AES_MODE_OFB, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_CTR, AES_DIR_ENCRYPT, false },
		{ &sa, key1, AES_MODE_CBC, AES_DIR_ENCRYPT, false }, { &sa, key1, AES_MODE_OFB, AES_DIR_DECRYPT, false },
		{ &sa, key1, AES_MODE_ECB, AES_DIR_ENCRYPT, false },
	};
	static const struct op rekey[] = {
		{ &sa, key1, AES_MODE_CBC, AES_DIR_ENCRYPT, false },
		{ &sa, key2, AES_MODE_CBC, AES_DIR_ENCRYPT, true },
		{ &sa, key1, AES_MODE_CBC, AES_DIR_ENCRYPT, true },
	};
	struct reload_seq seqs[4] = {
		{ "two sessions interleaved", interleaved, 7, 0, 0, 0 },
		{ "encrypt then decrypt on one session", enc_dec, 7, 0, 0, 0 },
		{ "mode changes on one key (ECB after CFB and OFB)", modes, 9, 0, 0, 0 },
		{ "one session re-keyed in place (set_key again, no release)", rekey, 3, 0, 0, 0 },
	};
	const char *pn = emu_profile_name(p);
	unsigned i, k;
	int exc;

	for (i = 0; i < 4; i++)
		for (k = 128; k <= 256; k += 128) {
			seqs[i].bits = k;
			setup(p, NULL);
			exc = emu_guard(reload_seq_run, &seqs[i]);
			t_ok(exc == EMU_EXC_NONE && seqs[i].rc == 0 && seqs[i].bad == 0 &&
			     emu_stats()->stale_ecb == 0,
			     "%s: key reload, AES-%u, %s: %u operations match software (%u differ)",
			     pn, k, seqs[i].what, seqs[i].nops, seqs[i].bad);
			setup(p, NULL);
			padlock_quirks.no_reload = true;
			exc = emu_guard(reload_seq_run, &seqs[i]);
			t_ok(exc == EMU_EXC_NONE && seqs[i].bad > 0,
			     "%s: key reload, AES-%u, %s: without the reload (no_reload) %u differ",
			     pn, k, seqs[i].what, seqs[i].bad);
		}
}

/* ---- the work buffers wiped ---- */

static void wipe_tests_run(void *ctx)
{
	(void)ctx;
	console_host_clear();
	driver_run_tests(&padlock_driver);
}

static void test_wipe_quirks(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);

	setup(p, NULL);
	emu_guard(wipe_tests_run, NULL);
	t_ok(text_has(" - padlock: ace work buffers (IV, bounce) wiped after use (IV and bounce buffers zero after unaligned CBC and CTR)\n"),
	     "%s: the wipe self-test passes: IV and bounce buffers zero after use", pn);
	setup(p, NULL);
	padlock_quirks.no_wipe_iv = true;
	emu_guard(wipe_tests_run, NULL);
	t_ok(text_has(" - padlock: ace work buffers (IV, bounce) wiped after use: non-zero bytes left: IV buffer ") &&
	     !text_has("IV buffer 0 after CBC") && !text_has(", 0 after CTR; bounce") &&
	     text_has("; bounce buffer 0 after CBC, 0 after CTR"),
	     "%s: without the IV wipe (no_wipe_iv) the wipe self-test fails and counts the bytes", pn);
	setup(p, NULL);
	padlock_quirks.no_wipe_bounce = true;
	emu_guard(wipe_tests_run, NULL);
	t_ok(text_has(" - padlock: ace work buffers (IV, bounce) wiped after use: non-zero bytes left: IV buffer 0 after CBC, 0 after CTR; bounce buffer ") &&
	     !text_has("bounce buffer 0 after CBC") && !text_has(", 0 after CTR\n"),
	     "%s: without the bounce wipe (no_wipe_bounce) the wipe self-test fails and counts the bytes", pn);
}

struct buf_case {
	enum aes_mode mode;
	unsigned bits;
	const uint8_t *in;
	uint8_t *out;
	size_t len;
	bool ok;
};

static void buf_run(void *ctx)
{
	struct buf_case *c = ctx;
	static uint8_t want[PAGE];
	uint8_t iv[16] = "initial vector!", iv2[16];

	memcpy(iv2, iv, 16);
	expected(c->bits, key1, c->mode, AES_DIR_ENCRYPT, iv, c->in, want, c->len);
	c->ok = false;
	if (aes_engine_oneshot(engine_aes_find("padlock-ace"), c->bits, key1, c->mode,
			       AES_DIR_ENCRYPT, iv2, c->in, c->out, c->len) != 0)
		return;
	c->ok = memcmp(c->out, want, c->len) == 0;
}

/*
 * Unaligned caller buffers are bounced. Without the bounce, ECB faults on
 * every CPU; CBC faults on the Nehemiah only (the C7, Nano and KX-7000
 * accept unaligned data outside ECB [notes: PG]).
 */
static void test_quirk_unaligned(enum emu_profile p)
{
	static uint8_t in[128] __attribute__((aligned(16))), out[128] __attribute__((aligned(16)));
	const char *pn = emu_profile_name(p);
	struct buf_case c = { AES_MODE_CBC, 192, in + 4, out + 8, 64, false };
	int exc;

	memcpy(in + 4, pt, 64);
	setup(p, NULL);
	exc = emu_guard(buf_run, &c);
	t_ok(exc == EMU_EXC_NONE && c.ok, "%s: unaligned caller buffers (in +4, out +8) are bounced: right output", pn);
	c.mode = AES_MODE_ECB;
	setup(p, NULL);
	padlock_quirks.no_bounce_unaligned = true;
	exc = emu_guard(buf_run, &c);
	t_ok(exc == EMU_EXC_GP, "%s: without the bounce (no_bounce_unaligned) unaligned ECB raises #GP (%s)",
	     pn, emu_last_fault());
	c.mode = AES_MODE_CBC;
	setup(p, NULL);
	padlock_quirks.no_bounce_unaligned = true;
	exc = emu_guard(buf_run, &c);
	if (p == EMU_NEHEMIAH)
		t_ok(exc == EMU_EXC_GP, "%s: ... and unaligned CBC raises #GP on the Nehemiah (%s)",
		     pn, emu_last_fault());
	else
		t_ok(exc == EMU_EXC_NONE && c.ok, "%s: ... but unaligned CBC runs in place with the right output (C7 and later accept it)%s%s",
		     pn, exc ? ": " : "", emu_last_fault());
}

/*
 * Unaligned and in-place buffers for every claimed (mode, direction) with
 * AES-128 and AES-256, over lengths that need one and several bounce
 * chunks: the same bytes and next IV as the software engine.
 */
static void test_bounce_matrix(enum emu_profile p)
{
	static const struct { unsigned in, out; } offs[] = { { 1, 1 }, { 3, 0 }, { 0, 5 }, { 7, 7 } };
	static const size_t lens[] = { 16, 4096 + 48, 8992 };
	const struct aes_engine *e, *sw;
	unsigned m, d, k, o, l, runs = 0, bad = 0;
	uint8_t iv[16], iv_sw[16];

	setup(p, NULL);
	e = engine_aes_find("padlock-ace");
	sw = engine_aes_find("software");
	for (m = 0; m < AES_MODE_COUNT; m++)
		for (d = 0; d < AES_DIR_COUNT; d++)
			for (k = 128; k <= 256; k += 128) {
				if (!aes_engine_supports(e, k, m, d))
					continue;
				for (o = 0; o < 4; o++)
					for (l = 0; l < 3; l++) {
						uint8_t *in = xc_in + offs[o].in;
						uint8_t *out = o == 3 ? in : xc_out + offs[o].out;
						size_t i, n = lens[l];
						for (i = 0; i < n; i++)
							in[i] = (uint8_t)(i * 13 + m + d);
						memset(iv, 0x5C, 16);
						memcpy(iv_sw, iv, 16);
						aes_engine_oneshot(sw, k, key2, m, d, iv_sw, in, xc_ref_out, n);
						runs++;
						if (aes_engine_oneshot(e, k, key2, m, d, iv, in, out, n) != 0 ||
						    memcmp(out, xc_ref_out, n) != 0 ||
						    (m != AES_MODE_ECB && memcmp(iv, iv_sw, 16) != 0)) {
							bad++;
							t_diag("  %s %s AES-%u offsets %u/%u length %u differs",
							       aes_mode_name(m), aes_dir_name(d), k,
							       offs[o].in, o == 3 ? offs[o].in : offs[o].out,
							       (unsigned)n);
						}
					}
			}
	t_ok(runs > 0 && bad == 0 && emu_stats()->faults == 0,
	     "%s: unaligned (1/1, 3/0, 0/5) and in-place (+7) buffers, 16..8992 bytes, every claimed mode: %u runs, %u differ",
	     emu_profile_name(p), runs, bad);
}

/*
 * Input of len bytes ending `gap` bytes before the guard page: with the
 * driver's tail bounce the output is right; without it the prefetch faults
 * when the mode's fetch group reaches past the page (fault), else the
 * unit reads nothing there (CFB/OFB, a whole group) and it still works.
 */
static void test_quirk_page_tail(enum emu_profile p, enum aes_mode m, size_t gap, size_t len,
				 bool fault)
{
	static uint8_t out[PAGE] __attribute__((aligned(16)));
	const char *pn = emu_profile_name(p);
	struct buf_case c = { m, 128, guarded + PAGE - gap - len, out, len, false };
	size_t i;
	int exc;

	for (i = 0; i < len; i++)
		guarded[PAGE - gap - len + i] = (uint8_t)(i * 7 + 1);
	setup(p, NULL);
	exc = emu_guard(buf_run, &c);
	t_ok(exc == EMU_EXC_NONE && c.ok,
	     "%s: %s, %u-byte input ending %u bytes before an unmapped page: tail bounced, right output",
	     pn, aes_mode_name(m), (unsigned)len, (unsigned)gap);
	setup(p, NULL);
	padlock_quirks.no_page_tail_bounce = true;
	exc = emu_guard(buf_run, &c);
	if (fault)
		t_ok(exc == EMU_EXC_PF, "%s: %s without the tail bounce (no_page_tail_bounce) the prefetch faults (%s)",
		     pn, aes_mode_name(m), emu_last_fault());
	else
		t_ok(exc == EMU_EXC_NONE && c.ok, "%s: %s without the tail bounce nothing is read past the input: no fault, right output%s%s",
		     pn, aes_mode_name(m), exc ? ": " : "", emu_last_fault());
}

struct rng_case {
	const char *source;
	uint8_t *buf;
	size_t len, got;
	int rc;
};

static void rng_run(void *ctx)
{
	struct rng_case *c = ctx;
	const struct rng_source *r = engine_rng_find(c->source);
	c->got = 0;
	c->rc = r ? r->read(r, c->buf, c->len, &c->got) : -100;
}

/* padlock_t_xstore of one divisor, its detail kept. */
struct xstore_test_case {
	unsigned divisor;
	char detail[200];
	enum drv_status st;
};

static void xstore_test_run(void *ctx)
{
	struct xstore_test_case *c = ctx;
	c->st = padlock_t_xstore(&c->divisor, c->detail, sizeof(c->detail));
}

static void test_quirk_xstore_slack(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);
	struct rng_case c = { "padlock-xstore/div0", guarded + PAGE - 13, 13, 0, 0 };
	int exc;

	setup(p, NULL);
	exc = emu_guard(rng_run, &c);
	t_ok(exc == EMU_EXC_NONE && c.rc == 0 && c.got == 13,
	     "%s: xstore into a 13-byte buffer at a page end: slack buffer used, 13 bytes", pn);
	setup(p, NULL);
	padlock_quirks.no_xstore_slack = true;
	exc = emu_guard(rng_run, &c);
	t_ok(exc == EMU_EXC_PF, "%s: without the slack (no_xstore_slack) the 8-byte store overruns the buffer (%s)",
	     pn, emu_last_fault());
}

static void hash_run(void *ctx)
{
	uint8_t *ok = ctx, d[32], want[32];
	const struct hash_engine *h = engine_hash_find("padlock-phe", HASH_SHA256);
	if (!h) {		/* no PHE on this CPU: nothing to check */
		*ok = 1;
		return;
	}
	*ok = h->digest(h, pt, 64, d) == 0;
	sha256(pt, 64, want);
	*ok &= memcmp(d, want, 32) == 0;
}

static void test_quirk_cr0(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);
	struct emu_options o;
	struct buf_case c = { AES_MODE_OFB, 128, pt, xc_out, 64, false };
	uint8_t hok = 0;
	int exc, exc2;

	memset(&o, 0, sizeof(o));
	o.cr0 = 1u << 3;	/* TS */
	setup(p, &o);
	exc = emu_guard(buf_run, &c);
	exc2 = emu_guard(hash_run, &hok);
	t_ok(exc == EMU_EXC_NONE && c.ok && exc2 == EMU_EXC_NONE && hok && emu_cr0() == (1u << 3),
	     "%s: CR0.TS set: cleared around the PadLock instructions and restored, right output", pn);
	setup(p, &o);
	padlock_quirks.no_cr0_ts = true;
	exc = emu_guard(buf_run, &c);
	t_ok(exc == EMU_EXC_NM, "%s: without clearing CR0.TS (no_cr0_ts) the unit raises #NM (%s)",
	     pn, emu_last_fault());
}

static void test_quirk_pmm(enum emu_profile p)
{
	const char *pn = emu_profile_name(p);

	setup(p, NULL);
	padlock_quirks.no_pmm_final_sub = true;
	console_host_clear();
	driver_run_tests(&padlock_driver);
	t_ok(strstr(console_host_text(), "not ok") &&
	     strstr(strstr(console_host_text(), "not ok"), "padlock: pmm rep montmul"),
	     "%s: without the final subtraction (no_pmm_final_sub) the PMM KAT fails: the unit's result is >= M",
	     pn);
}

/* ---- more hardware behaviour ---- */

static void test_ctr_wrap(void)
{
	const struct aes_engine *e;
	uint8_t ctr[16], ctr_sw[16], out[64], want[64];
	int rc;

	setup(EMU_ESTHER, NULL);
	e = engine_aes_find("padlock-ace");
	memset(ctr, 0x11, 12);
	ctr[12] = ctr[13] = ctr[14] = 0xFF;
	ctr[15] = 0xFE;
	memcpy(ctr_sw, ctr, 16);
	rc = aes_engine_oneshot(e, 128, key1, AES_MODE_CTR, AES_DIR_ENCRYPT, ctr, pt, out, 64);
	aes_engine_oneshot(engine_aes_find("software"), 128, key1, AES_MODE_CTR, AES_DIR_ENCRYPT,
			   ctr_sw, pt, want, 64);
	t_ok(rc == 0 && memcmp(out, want, 64) == 0 && memcmp(ctr, ctr_sw, 16) == 0,
	     "esther: CTR from ECB across a 32-bit counter wrap: the counter carries into bit 32 as in SP 800-38A; output and next counter right");
}

static void test_rng(void)
{
	struct emu_options o;
	uint8_t buf[64];
	struct rng_case c = { "padlock-xstore/div0", buf, 64, 0, 0 };
	unsigned d;
	char name[32];
	bool all = true;

	/* Every divisor: the right byte count per store. */
	setup(EMU_NEHEMIAH, NULL);
	for (d = 0; d < 4; d++) {
		unsigned long before = emu_stats()->xstore;
		snprintf(name, sizeof(name), "padlock-xstore/div%u", d);
		c.source = name;
		c.len = 37;
		emu_guard(rng_run, &c);
		all &= c.rc == 0 && c.got == 37 &&
		       emu_stats()->xstore - before == (37 + (8u >> d) - 1) / (8u >> d);
	}
	t_ok(all, "nehemiah: xstore divisors 0..3 deliver 8, 4, 2, 1 bytes a store");

	/* The status test counts its own read's stores, not the source's since
	 * boot: run again (as each soak pass does), it says the same. */
	{
		struct xstore_test_case x = { 3, "", DRV_FAIL };
		emu_guard(xstore_test_run, &x);
		emu_guard(rng_run, &c);
		emu_guard(xstore_test_run, &x);
		t_ok(x.st == DRV_PASS && strncmp(x.detail, "256 bytes in 256 stores (0 empty), ", 35) == 0,
		     "nehemiah: the xstore status test, run again after other reads, counts its own read (%s)", x.detail);
	}

	/* String filter and raw bits left on by firmware: cleared at probe. */
	memset(&o, 0, sizeof(o));
	o.model.rng_msr_set = true;
	o.model.rng_msr = RNG_MSR_ENABLE | RNG_MSR_SRC1 | RNG_MSR_RAW_BITS | RNG_MSR_FILTER_EN |
		    (5u << RNG_MSR_FILTER_CNT_SHIFT);
	setup(EMU_NEHEMIAH, &o);
	t_diag_lines(console_host_text());
	c.source = "padlock-xstore/div0";
	c.len = 64;
	emu_guard(rng_run, &c);
	t_ok(emu_msr_rng() == (RNG_MSR_ENABLE | RNG_MSR_SRC1 | RNG_MSR_SRC2) && c.rc == 0 &&
	     text_has("MSR 0x110B as found") && text_has("MSR 0x110B set to"),
	     "nehemiah: RNG MSR reported; raw bits and string filter cleared, both noise sources on (0x%llx)",
	     (unsigned long long)emu_msr_rng());

	/* via-rng.c's masks: the filter count as 7 bits (22:16), the xstore
	 * count as 0x0F; bit 4 and the DC bias kept as found. */
	o.model.rng_msr = RNG_MSR_ENABLE | RNG_MSR_SRC1 | (0x7Fu << RNG_MSR_FILTER_CNT_SHIFT) | 0x1Fu |
		    RNG_MSR_RAW_BITS | RNG_MSR_FILTER_EN | RNG_MSR_FILTER_FAIL;
	setup(EMU_NEHEMIAH, &o);
	t_ok(emu_msr_rng() == (RNG_MSR_ENABLE | RNG_MSR_SRC1 | RNG_MSR_SRC2 | 0x10u),
	     "nehemiah: RNG MSR set up with via-rng.c's masks: 0x%llx -> 0x%llx (bits 22:16, 15:13 and 3:0 cleared, bit 4 kept)",
	     (unsigned long long)o.model.rng_msr, (unsigned long long)emu_msr_rng());
	o.model.rng_msr = RNG_MSR_ENABLE | RNG_MSR_SRC1 | RNG_MSR_SRC2;
	setup(EMU_ESTHER, &o);
	t_ok(emu_stats()->msr_writes[1] == 0,
	     "esther: RNG MSR already as wanted: not written (via-rng.c writes only on a change)");
	setup(EMU_ISAIAH, NULL);
	t_ok(emu_stats()->msr_writes[1] == 0 && emu_stats()->msr_writes[0] == 0,
	     "isaiah: the Nano's enabled RNG: no MSR written (no RNG MSR on the Nano)");

	/*
	 * A DC bias left by firmware (no public driver clears it) shows in
	 * every status on the C7: reported once, never a rejection by itself.
	 */
	o.model.rng_msr = RNG_MSR_ENABLE | RNG_MSR_SRC1 | RNG_MSR_SRC2 | (3u << RNG_MSR_DC_BIAS_SHIFT);
	setup(EMU_ESTHER, &o);
	emu_guard(rng_run, &c);
	t_ok(c.rc == 0 && c.got == c.len &&
	     text_has("status 0x00000f48: DC bias 3, string filter bits 0x0 set (reported, not judged: "),
	     "esther: a status with a firmware DC bias is reported, not refused (rc %d)", c.rc);

	/* An empty FIFO now and then: retried. */
	memset(&o, 0, sizeof(o));
	o.model.rng_empty_every = 3;
	setup(EMU_ISAIAH, &o);
	emu_guard(rng_run, &c);
	t_ok(c.rc == 0 && c.got == 64 && emu_stats()->xstore_empty > 0,
	     "isaiah: empty stores are retried (%lu empty of %lu)", emu_stats()->xstore_empty,
	     emu_stats()->xstore);

	/* A stuck RNG: a bounded wait, then a timeout. */
	memset(&o, 0, sizeof(o));
	o.model.faults |= PADLOCK_MODEL_FAULT_RNG_STUCK;
	setup(EMU_ISAIAH, &o);
	hw_host_set_tsc_step(20000000);
	emu_guard(rng_run, &c);
	t_ok(c.rc == ENGINE_ETIMEOUT && c.got == 0 && emu_stats()->xstore < 100,
	     "isaiah: an RNG that never delivers times out after %lu empty stores", emu_stats()->xstore);
}

static uint32_t phe_state_buf[PHE_STATE_BYTES / 4] __attribute__((aligned(16)));

static void block_mode_direct(void *ctx)
{
	static uint8_t blk[64];
	(void)ctx;
	padlock_xsha256(blk, phe_state_buf, PHE_BLOCK_MODE, 1);
}

static void ecx0_direct(void *ctx)
{
	(void)ctx;
	padlock_xsha1("", phe_state_buf, 0, 0);
}

/* xsha1 with the state's 32 bytes ending at the guard page. */
static void xsha1_32_direct(void *ctx)
{
	uint32_t *st = (uint32_t *)(void *)(guarded + PAGE - 32);
	(void)ctx;
	memset(st, 0, 32);
	padlock_xsha1("abc", st, 0, 3);
}

struct hash_zero {
	bool ok;
};

static void hash_empty_run(void *ctx)
{
	struct hash_zero *z = ctx;
	uint8_t d[32], want[32];
	unsigned a;

	z->ok = true;
	for (a = 0; a < HASH_ALG_COUNT; a++) {
		const struct hash_engine *h = engine_hash_find("padlock-phe", a);
		if (!h)
			continue;
		z->ok &= h->digest(h, (const uint8_t *)"", 0, d) == 0;
		if (a == HASH_SHA1)
			sha1("", 0, want);
		else
			sha256("", 0, want);
		z->ok &= memcmp(d, want, a == HASH_SHA1 ? 20 : 32) == 0;
	}
}

/* The SHA-1 and SHA-256 initial hash values (FIPS 180-4 5.3.1, 5.3.3), as the state words. */
static const uint32_t sha1_h0[5] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u };
static const uint32_t sha256_h0[8] = {
	0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
	0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

/* The digest bytes of n state words: each word big-endian (the callers' byte swap). */
static void state_digest(const uint32_t *w, unsigned n, uint8_t *out)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		out[4 * i] = (uint8_t)(w[i] >> 24);
		out[4 * i + 1] = (uint8_t)(w[i] >> 16);
		out[4 * i + 2] = (uint8_t)(w[i] >> 8);
		out[4 * i + 3] = (uint8_t)w[i];
	}
}

struct third_party_sha {
	uint8_t d1[20], d256[32];
};

/*
 * Linux drivers/crypto/padlock-sha.c, padlock_sha1_finup() and
 * padlock_sha256_finup() (the C7's one-shot path) on the empty message:
 * nothing was hashed (state.count = 0), so leftover = 64 and space = 0;
 * the initial state goes into a 16-byte-aligned 128-byte buffer
 * ("PadLock microcode needs it that big") and rep xsha runs with EAX =
 * state.count = 0, ECX = state.count + count = 0, ESI = in; then
 * padlock_output_block() byte-swaps each state word into the digest.
 */
static void linux_c7_finup_empty(void *ctx)
{
	struct third_party_sha *t = ctx;
	static const uint8_t in[1];

	memcpy(phe_state_buf, sha1_h0, sizeof(sha1_h0));
	padlock_xsha1(in, phe_state_buf, 0, 0);
	state_digest(phe_state_buf, 5, t->d1);
	memcpy(phe_state_buf, sha256_h0, sizeof(sha256_h0));
	padlock_xsha256(in, phe_state_buf, 0, 0);
	state_digest(phe_state_buf, 8, t->d256);
}

/*
 * GnuTLS lib/accelerated/x86 (CRYPTOGAMS e_padlock-x86.pl)
 * padlock_sha1_oneshot() / padlock_sha256_oneshot(), as
 * wrap_padlock_hash_fast() calls them for the empty message: the context
 * (the initial state) is copied into a 16-byte-aligned area 128 bytes
 * below the stack pointer, rep xsha runs with EAX = 0, ECX = len = 0, ESI
 * = the input, EDI = that area, the state is copied back, and the digest
 * is the state words written big-endian.
 */
static void gnutls_c7_oneshot_empty(void *ctx)
{
	struct third_party_sha *t = ctx;
	uint8_t stack[128 + 16];
	uint32_t *area = (uint32_t *)(void *)(((uintptr_t)stack + 15) & ~(uintptr_t)15);
	uint32_t state[8];
	static const uint8_t in[1];

	memcpy(state, sha1_h0, sizeof(sha1_h0));
	memcpy(area, state, 5 * 4);
	padlock_xsha1(in, area, 0, 0);
	memcpy(state, area, 5 * 4);
	state_digest(state, 5, t->d1);
	memcpy(state, sha256_h0, sizeof(sha256_h0));
	memcpy(area, state, 8 * 4);
	padlock_xsha256(in, area, 0, 0);
	memcpy(state, area, 8 * 4);
	state_digest(state, 8, t->d256);
}

/*
 * Third-party callers' empty-message sequences on the emulated C7: both
 * send ECX = 0 and must get the empty message's digests (on VIA parts the
 * unit pads and hashes it; they pass their empty test vector there).
 */
static void test_phe_third_party_empty(void)
{
	static const struct { const char *who; void (*fn)(void *); } seq[] = {
		{ "Linux padlock_sha1/256_finup", linux_c7_finup_empty },
		{ "GnuTLS padlock_sha1/256_oneshot", gnutls_c7_oneshot_empty },
	};
	struct third_party_sha t;
	uint8_t w1[20], w256[32];
	unsigned i;
	int exc;

	sha1("", 0, w1);
	sha256("", 0, w256);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		setup(EMU_ESTHER, NULL);
		memset(&t, 0, sizeof(t));
		exc = emu_guard(seq[i].fn, &t);
		t_ok(exc == EMU_EXC_NONE && memcmp(t.d1, w1, 20) == 0 && memcmp(t.d256, w256, 32) == 0 &&
		     emu_stats()->xsha_ecx0 == 2,
		     "esther: %s on the empty message (ECX = 0): the SHA-1 and SHA-256 digests of the empty message (xsha with ECX = 0 counted: %lu)%s%s",
		     seq[i].who, emu_stats()->xsha_ecx0, exc ? ": " : "", emu_last_fault());
	}
}

/*
 * PHE: the C7's one-shot engine never issues ECX = 0 (the empty message is
 * hashed in software and the description says so); what the model does
 * with ECX = 0 (nothing: Zhaoxin documents it, VIA's is unknown); block
 * mode on the C7 is a wrong result, not a fault (strict: #GP); Zhaoxin's
 * XSHA1 uses 32 bytes of state.
 */
static void test_phe_modes(void)
{
	struct emu_options o;
	struct hash_zero z;
	uint32_t before[8];
	int exc;

	setup(EMU_ESTHER, NULL);
	exc = emu_guard(hash_empty_run, &z);
	t_ok(exc == EMU_EXC_NONE && z.ok && emu_stats()->xsha_ecx0 == 0 && emu_stats()->xsha == 0 &&
	     strstr(engine_hash_find("padlock-phe", HASH_SHA1)->description, "the empty message in software"),
	     "esther: one-shot PHE: the empty message is hashed in software, rep xsha is never issued with ECX = 0, and the description says so");
	setup(EMU_ISAIAH, NULL);
	exc = emu_guard(hash_empty_run, &z);
	t_ok(exc == EMU_EXC_NONE && z.ok && emu_stats()->xsha == 2 && emu_stats()->xsha_ecx0 == 0,
	     "isaiah: block-mode PHE hashes the empty message on the unit (one padded block each)");

	setup(EMU_ZHAOXIN, NULL);
	memset(phe_state_buf, 0x5A, sizeof(phe_state_buf));
	memcpy(before, phe_state_buf, sizeof(before));
	exc = emu_guard(ecx0_direct, NULL);
	t_ok(exc == EMU_EXC_NONE && memcmp(before, phe_state_buf, sizeof(before)) == 0 &&
	     emu_stats()->xsha_ecx0 == 1,
	     "zhaoxin: model: one-shot xsha1 with ECX = 0 is no operation (documented for Zhaoxin)");
	exc = emu_guard(xsha1_32_direct, NULL);
	t_ok(exc == EMU_EXC_NONE, "zhaoxin: model: xsha1 uses only 32 bytes of state (%s)",
	     exc ? emu_last_fault() : "a 32-byte state at a page end");
	setup(EMU_ESTHER, NULL);
	exc = emu_guard(xsha1_32_direct, NULL);
	t_ok(exc == EMU_EXC_PF, "esther: model: xsha1 works in 128 bytes of state on VIA parts (%s)",
	     emu_last_fault());

	setup(EMU_ESTHER, NULL);
	memset(phe_state_buf, 0x11, sizeof(phe_state_buf));
	memcpy(before, phe_state_buf, sizeof(before));
	exc = emu_guard(block_mode_direct, NULL);
	t_ok(exc == EMU_EXC_NONE && memcmp(before, phe_state_buf, sizeof(before)) == 0,
	     "esther: model: PHE block mode (EAX = -1) on the C7 gives a wrong result (state unchanged), no fault%s%s",
	     exc ? ": " : "", emu_last_fault());
	memset(&o, 0, sizeof(o));
	o.model.strict = true;
	setup(EMU_ESTHER, &o);
	exc = emu_guard(block_mode_direct, NULL);
	t_ok(exc == EMU_EXC_GP && strstr(emu_last_fault(), "not documented behaviour"),
	     "esther: model, strict option: PHE block mode raises #GP, labelled not documented behaviour (%s)",
	     emu_last_fault());
}

/* ---- the model against the sources (item by item) ---- */

static struct {
	uint32_t cw[4];
	uint8_t key[PADLOCK_KEYBUF_BYTES];
	uint8_t iv[16];
	uint8_t buf[4 * 16 + 16];
} mx __attribute__((aligned(16)));

static void xcrypt_cw_upper(void *ctx)
{
	(void)ctx;
	padlock_reload_key();
	padlock_xcrypt_ecb(mx.buf, mx.buf, mx.key, mx.cw, NULL, 2);
}

static void xcrypt_cbc_unaligned(void *ctx)
{
	(void)ctx;
	padlock_reload_key();
	padlock_xcrypt_cbc(mx.buf + 1, mx.buf + 1, mx.key, mx.cw, mx.iv, 2);
}

static uint8_t *rep_xstore_end;
static uint32_t rep_xstore_left;

static void rep_xstore_direct(void *ctx)
{
	uint32_t n = *(uint32_t *)ctx, div = 0;
	void *dst = mx.buf;
	__asm__ volatile(".byte 0xf3, 0x0f, 0xa7, 0xc0"
			 : "+D"(dst), "+c"(n), "+d"(div) : : "eax", "memory", "cc");
	rep_xstore_end = dst;
	rep_xstore_left = n;
}

static uint32_t xstore_div;

static void xstore_at_page_end(void *ctx)
{
	(void)ctx;
	padlock_xstore(guarded + PAGE - 4, xstore_div);
}

static void test_model_sources(void)
{
	struct emu_options o;
	uint32_t n = 13;
	unsigned d;
	int exc, exc_strict;

	/* The control word's upper 96 bits: ignored (Mbed TLS leaves them
	 * uninitialised and works on real parts); strict: #GP. */
	memset(&mx, 0, sizeof(mx));
	mx.cw[0] = 10;
	mx.cw[1] = 0xDEADBEEF;
	mx.cw[3] = 1;
	setup(EMU_ESTHER, NULL);
	exc = emu_guard(xcrypt_cw_upper, NULL);
	memset(&o, 0, sizeof(o));
	o.model.strict = true;
	setup(EMU_ESTHER, &o);
	exc_strict = emu_guard(xcrypt_cw_upper, NULL);
	t_ok(exc == EMU_EXC_NONE && exc_strict == EMU_EXC_GP && strstr(emu_last_fault(), "not documented behaviour"),
	     "model: non-zero control-word bits 127:32 are ignored; the strict option's #GP says not documented behaviour (%s)",
	     emu_last_fault());

	/* Unaligned data outside ECB: the C7, Nano and KX-7000 accept it, the Nehemiah faults. */
	mx.cw[1] = mx.cw[3] = 0;
	for (d = EMU_NEHEMIAH; d <= EMU_ZHAOXIN; d++) {
		if (d == EMU_SAMUEL2)
			continue;
		setup((enum emu_profile)d, NULL);
		exc = emu_guard(xcrypt_cbc_unaligned, NULL);
		t_ok(d == EMU_NEHEMIAH ? exc == EMU_EXC_GP : exc == EMU_EXC_NONE,
		     "%s: model: unaligned CBC data %s%s%s", emu_profile_name((enum emu_profile)d),
		     d == EMU_NEHEMIAH ? "raises #GP (Nehemiah)" : "accepted (C7 and later)",
		     exc ? ": " : "", emu_last_fault());
	}
	setup(EMU_ESTHER, &o);
	exc = emu_guard(xcrypt_cbc_unaligned, NULL);
	t_ok(exc == EMU_EXC_GP, "esther: model, strict option: unaligned CBC data raises #GP (%s)",
	     emu_last_fault());

	/* EFLAGS bit 30: set once a key is loaded, cleared by an EFLAGS write; never with strict. */
	setup(EMU_ESTHER, NULL);
	memset(&mx, 0, sizeof(mx));
	mx.cw[0] = 10;
	exc = emu_guard(xcrypt_cw_upper, NULL);
	{
		bool set = emu_eflags30() != 0;
		padlock_reload_key();
		t_ok(exc == EMU_EXC_NONE && set && emu_eflags30() == 0,
		     "model: EFLAGS bit 30 set after the xcrypt loaded a key, clear after pushfl; popfl");
	}
	setup(EMU_ESTHER, &o);
	exc = emu_guard(xcrypt_cw_upper, NULL);
	t_ok(exc == EMU_EXC_NONE && emu_eflags30() == 0,
	     "model, strict option: EFLAGS bit 30 never shown");

	/* rep xstore: ECX bytes. */
	setup(EMU_ISAIAH, NULL);
	exc = emu_guard(rep_xstore_direct, &n);
	t_ok(exc == EMU_EXC_NONE && rep_xstore_left == 0 && rep_xstore_end == mx.buf + 16 &&
	     emu_stats()->xstore == 2,
	     "isaiah: model: rep xstore with ECX = 13 (divisor 0) stores two 8-byte units, EDI +16, ECX 0%s%s",
	     exc ? ": " : "", emu_last_fault());

	/*
	 * xstore stores 8 bytes for divisor 0, 4 for 1 to 3 [LRNG
	 * VIA_RNG_CHUNK_4: "32 rand bits, 32 stored bits"].
	 */
	for (d = 0; d < 4; d++) {
		setup(EMU_ESTHER, NULL);
		xstore_div = d;
		exc = emu_guard(xstore_at_page_end, NULL);
		t_ok(d < 1 ? exc == EMU_EXC_PF : exc == EMU_EXC_NONE,
		     "esther: model: xstore divisor %u stores %s (4 bytes before a page end: %s)", d,
		     d < 1 ? "an 8-byte unit" : "a 32-bit unit", exc ? emu_last_fault() : "fits");
	}
}

int main(void)
{
	const char *shared = getenv("CQ_SHARED");
	char path[600];
	struct stat sb;
	int sites;
	unsigned p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	console_host_echo(NULL);	/* the kernel's lines are checked in the capture, shown by t_diag_lines */
	if (!shared || !shared[0])
		shared = "../shared";
	snprintf(path, sizeof(path), "%s/data/cpuid", shared);
	if (stat(path, &sb) != 0) {
		printf("1..0 # SKIP %s not found (set CQ_SHARED)\n", path);
		return 0;
	}
	t_begin();
	sites = emu_init(shared);
	t_ok(sites > 0, "emulator: SIGILL/SIGTRAP handlers installed, %d driver reload sites patched", sites);
	guarded = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guarded == MAP_FAILED || mprotect(guarded + PAGE, PAGE, PROT_NONE) != 0) {
		t_ok(false, "guard page mapped");
		return t_end();
	}
	engine_mark_emulated("padlock-");

	for (p = EMU_NEHEMIAH; p <= EMU_ZHAOXIN; p++)
		if (p != EMU_SAMUEL2)
			test_profile(p);
	test_absent();
	test_disabled();

	t_diag("---- quirks: handling on, then off ----");
	for (p = EMU_NEHEMIAH; p <= EMU_ZHAOXIN; p++) {
		if (p == EMU_SAMUEL2)
			continue;
		test_quirk_reload(p);
		test_reload_matrix(p);
		test_wipe_quirks(p);
		test_quirk_unaligned(p);
		test_bounce_matrix(p);
		test_quirk_xstore_slack(p);
		test_quirk_cr0(p);
	}
	/* ECB/CBC read to the end of their fetch group (C3/C7: 2 and 1 blocks,
	 * Nano: 8 and 4), nothing past a whole group, nothing in CFB/OFB. */
	test_quirk_page_tail(EMU_ESTHER, AES_MODE_ECB, 0, 48, true);	/* 3 blocks: 1 more read */
	test_quirk_page_tail(EMU_ESTHER, AES_MODE_ECB, 0, 64, false);	/* 2 whole groups */
	test_quirk_page_tail(EMU_ESTHER, AES_MODE_CBC, 0, 64, false);	/* group of 1 block */
	test_quirk_page_tail(EMU_NEHEMIAH, AES_MODE_OFB, 0, 1024, false);
	test_quirk_page_tail(EMU_ISAIAH, AES_MODE_ECB, 64, 48, true);	/* 3 blocks: 5 more, 80 bytes */
	test_quirk_page_tail(EMU_ISAIAH, AES_MODE_CFB128, 0, 64, false);
	test_quirk_page_tail(EMU_ISAIAH, AES_MODE_CBC, 0, PAGE - 48, true);	/* 253 blocks: 3 more */
	test_quirk_page_tail(EMU_ZHAOXIN, AES_MODE_CBC, 16, 80, true);	/* 5 blocks: 3 more, 48 bytes */
	test_quirk_page_tail(EMU_ESTHER, AES_MODE_CTR, 0, PAGE - 16, false);	/* CTR runs ECB on the driver's buffer */
	test_quirk_pmm(EMU_ESTHER);

	t_diag("---- more hardware behaviour ----");
	test_ctr_wrap();
	test_rng();
	test_phe_modes();
	test_phe_third_party_empty();
	test_model_sources();
	return t_end();
}
