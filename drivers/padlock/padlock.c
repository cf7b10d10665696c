/*
 * padlock: detection, enabling and registration of the PadLock units, and
 * the driver's own self-tests (padlock_driver). See padlock.h; sources in
 * padlock_reg.h.
 */
#include "drivers/padlock/padlock.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "drivers/padlock/padlock_int.h"
#include "drivers/padlock/padlock_reg.h"

struct padlock_dev padlock_dev;
struct drv_log padlock_log;

/* The register the unit bits come from, before its value in the `#` lines and notes. */
static const char cpuid_edx[] = "CPUID 0xC0000001 EDX=";

/* The units enable_by_msr() may enable: index 0 and 1 of enable[] and enable_note[]. */
static const char *const unit_name[2] = { "ACE", "RNG" };

/* "absent", "present-but-disabled" or "enabled", for the `#` lines. */
static const char *state_word(enum padlock_state st)
{
	return st == PADLOCK_PRESENT ? "present-but-disabled" : padlock_state_name(st);
}

#define UNITS_TEXT	120	/* room for units_text() */

/* "rng=%s ace=%s ace2=%s phe=%s pmm=%s" (state_word) into buf, UNITS_TEXT bytes; returns buf. */
static const char *units_text(char *buf)
{
	const struct padlock_dev *d = &padlock_dev;
	fmt_snprintf(buf, UNITS_TEXT, "rng=%s ace=%s ace2=%s phe=%s pmm=%s", state_word(d->rng),
		     state_word(d->ace), state_word(d->ace2), state_word(d->phe), state_word(d->pmm));
	return buf;
}

static void decode_units(uint32_t edx)
{
	static const uint8_t present_bit[PADLOCK_UNITS] = {	/* in the order of unit[] */
		CPUID_C1_EDX_RNG, CPUID_C1_EDX_ACE, CPUID_C1_EDX_ACE2,
		CPUID_C1_EDX_PHE, CPUID_C1_EDX_PMM, CPUID_C1_EDX_PHE2,
	};
	unsigned i;

	padlock_dev.edx = edx;
	for (i = 0; i < PADLOCK_UNITS; i++)
		padlock_dev.unit[i] = cpuid_padlock_state(edx, present_bit[i]);
}

/* Index of the lowest set bit of a non-zero mask. */
static unsigned bit_index(uint32_t mask)
{
	unsigned i = 0;
	while (i < 31 && !(mask & (1u << i)))
		i++;
	return i;
}

/*
 * Sets bit in msr with the safe accessors ([LCEN] init_c3/zhaoxin: a
 * present but disabled ACE or RNG is enabled this way) and reads the MSR
 * back. A failure before the write is noted at once; after the write the
 * outcome waits for CPUID to be read again (enable_judge).
 */
static void enable_by_msr(unsigned idx, const char *unit, uint32_t msr, uint32_t bit)
{
	struct padlock_enable *e = &padlock_dev.enable[idx];
	char *note = padlock_dev.enable_note[idx];
	const char *op = "rdmsr";
	uint64_t v;

	padlock_dev.enable_tried = true;
	if (hw_rdmsr_safe(msr, &v) != 0)
		goto fault;
	if (v & bit) {
		fmt_snprintf(note, PADLOCK_NOTE_MAX,
			     "%s present but disabled although MSR 0x%X = 0x%llx has the enable bit",
			     unit, msr, (unsigned long long)v);
		return;
	}
	op = "wrmsr";
	if (hw_wrmsr_safe(msr, v | bit) != 0)
		goto fault;
	e->unit = unit;
	e->msr = msr;
	e->bit = bit;
	e->before = v;
	e->wrote = true;
	e->read_back = hw_rdmsr_safe(msr, &e->after) == 0;
	return;
fault:
	fmt_snprintf(note, PADLOCK_NOTE_MAX, "%s present but disabled: %s 0x%X faulted, left disabled",
		     unit, op, msr);
}

/*
 * After CPUID was read again: the write worked only if the unit now reads
 * enabled. When it still reads present-but-disabled the note says the
 * attempt failed, and why: the bit did not stick in the MSR, or it did
 * and CPUID still says disabled.
 */
static void enable_judge(unsigned idx, enum padlock_state now)
{
	const struct padlock_enable *e = &padlock_dev.enable[idx];
	char *note = padlock_dev.enable_note[idx];
	unsigned long long from = e->before, to = e->before | e->bit, back = e->after;
	char why[96];

	if (!e->wrote)
		return;
	why[0] = '\0';	/* stays empty when the unit is enabled now */
	if (now != PADLOCK_ENABLED) {
		if (!e->read_back)
			fmt_snprintf(why, sizeof(why), "reading MSR 0x%X back faulted", e->msr);
		else if (!(e->after & e->bit))
			fmt_snprintf(why, sizeof(why), "the bit did not stick, MSR 0x%X reads 0x%llx",
				     e->msr, back);
		else
			fmt_snprintf(why, sizeof(why), "MSR 0x%X reads 0x%llx but %s0x%08x",
				     e->msr, back, cpuid_edx, padlock_dev.edx);
	}
	if (why[0])
		fmt_snprintf(note, PADLOCK_NOTE_MAX,
			     "%s was present but disabled: tried to enable it by setting MSR 0x%X bit %u (0x%llx -> 0x%llx); the unit is still disabled: %s",
			     e->unit, e->msr, bit_index(e->bit), from, to, why);
	else
		fmt_snprintf(note, PADLOCK_NOTE_MAX,
			     "%s was present but disabled: enabled it by setting MSR 0x%X bit %u (0x%llx -> 0x%llx)",
			     e->unit, e->msr, bit_index(e->bit), from, to);
}

/*
 * Enables a present but disabled ACE and RNG through the MSRs Linux uses,
 * chosen by vendor string [LCEN]: init_c3() in centaur.c (FCR 0x1107 bit
 * 28, RNG MSR 0x110B bit 6) for CentaurHauls family 6 and family >= 7
 * (real Zhaoxin KX parts report CentaurHauls family 7), and zhaoxin.c's
 * MSR 0x1257 (bit 7 ACE, bit 8 RNG) only for "  Shanghai  ".
 */
static void enable_units(void)
{
	static const uint32_t msr[2][3] = {	/* ACE, RNG: VIA MSR and bit, Zhaoxin bit */
		{ MSR_VIA_FCR, FCR_ACE_ENABLE, FCR57_ACE_ENABLE },
		{ MSR_VIA_RNG, RNG_MSR_ENABLE, FCR57_RNG_ENABLE },
	};
	struct padlock_dev *d = &padlock_dev;
	bool centaur = !d->shanghai &&
		       (d->family == PADLOCK_FAMILY_VIA || d->family >= PADLOCK_FAMILY_ZHAOXIN);
	unsigned i;

	for (i = 0; i < 2; i++) {
		if ((i ? d->rng : d->ace) != PADLOCK_PRESENT)
			continue;
		if (d->shanghai)
			enable_by_msr(i, unit_name[i], MSR_ZHAOXIN_FCR57, msr[i][2]);
		else if (centaur)
			enable_by_msr(i, unit_name[i], msr[i][0], msr[i][1]);
		else
			fmt_snprintf(d->enable_note[i], PADLOCK_NOTE_MAX,
				     "%s present but disabled, no known enable MSR for %s family %u",
				     unit_name[i], d->vendor, d->family);
	}
}

/* Sets the absent reason: "no VIA PadLock on this CPU (" fmt ")". */
static void set_absent(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void set_absent(const char *fmt, ...)
{
	struct padlock_dev *d = &padlock_dev;
	char why[PADLOCK_NOTE_MAX];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fmt_snprintf(d->absent_buf, sizeof(d->absent_buf), "no VIA PadLock on this CPU (%s)", why);
	d->absent = d->absent_buf;
}

static void count_registration(int rc, unsigned n)
{
	if (rc != 0 && padlock_dev.register_error == 0)
		padlock_dev.register_error = rc;
	if (rc == 0)
		padlock_dev.engines += n;
}

/* The "engines:" log line: one whole clause per registered engine. */
static void engines_line(const struct padlock_dev *d)
{
	char line[240] = "engines:";

	if (d->ace == PADLOCK_ENABLED && d->ace2 == PADLOCK_ENABLED)
		fmt_append(line, sizeof(line), " padlock-ace (ecb cbc cfb128 ofb, ctr from ecb; hardware ctr only as a probe)");
	else if (d->ace == PADLOCK_ENABLED)
		fmt_append(line, sizeof(line), " padlock-ace (ecb cbc cfb128 ofb, ctr from ecb)");
	if (d->phe == PADLOCK_ENABLED && d->phe_block_mode)
		fmt_append(line, sizeof(line), " padlock-phe sha1+sha256 (block mode)");
	else if (d->phe == PADLOCK_ENABLED)
		fmt_append(line, sizeof(line), " padlock-phe sha1+sha256 (one-shot)");
	if (d->rng == PADLOCK_ENABLED)
		fmt_append(line, sizeof(line), " padlock-xstore/div0..div3");
	if (d->pmm == PADLOCK_ENABLED && d->pmm_finding)
		fmt_append(line, sizeof(line), " padlock-pmm (once its known answer, a finding on Zhaoxin, matches)");
	else if (d->pmm == PADLOCK_ENABLED)
		fmt_append(line, sizeof(line), " padlock-pmm");
	drv_log(&padlock_log, "%s", line);
}

void padlock_probe(const struct cpu_info *cpu)
{
	struct padlock_dev *d = &padlock_dev;
	struct cpuid_regs r;
	char units[UNITS_TEXT];
	bool centaur = strcmp(cpu->vendor, CPUID_VENDOR_CENTAUR) == 0;
	bool shanghai = strcmp(cpu->vendor, CPUID_VENDOR_ZHAOXIN) == 0;
	unsigned i;

	memset(d, 0, sizeof(*d));
	padlock_ace_forget();
	d->probed = true;
	memcpy(d->vendor, cpu->vendor, sizeof(d->vendor));
	d->family = cpu->family;
	d->model = cpu->model;
	d->stepping = cpu->stepping;
	d->shanghai = shanghai;
	d->zhaoxin = shanghai || (centaur && cpu->family >= PADLOCK_FAMILY_ZHAOXIN);

	if (!centaur && !shanghai) {
		set_absent("vendor %s, CentaurHauls leaf absent",
			   cpu->vendor[0] ? cpu->vendor : "unknown");
		drv_log(&padlock_log, "%s", d->absent);
		return;
	}
	if (cpu->max_centaur_leaf < PADLOCK_LEAF_FEAT) {
		set_absent("%s family %u model %u: CentaurHauls leaf 0xC0000001 absent",
			   cpu->vendor, cpu->family, cpu->model);
		drv_log(&padlock_log, "%s", d->absent);
		return;
	}
	d->edx_at_boot = cpu->centaur_edx;
	decode_units(cpu->centaur_edx);
	drv_log(&padlock_log, "%s family %u model %u stepping %u: %s0x%08x",
		 cpu->vendor, cpu->family, cpu->model, cpu->stepping, cpuid_edx, cpu->centaur_edx);

	enable_units();
	if (d->enable_tried) {
		hw_cpuid(PADLOCK_LEAF_FEAT, 0, &r);
		decode_units(r.edx);
		drv_log(&padlock_log, "after enabling: %s0x%08x", cpuid_edx, r.edx);
		enable_judge(0, d->ace);
		enable_judge(1, d->rng);
	}
	for (i = 0; i < 2; i++)
		if (d->enable_note[i][0])
			drv_log(&padlock_log, "%s (%s now %s)", d->enable_note[i], unit_name[i],
				state_word(i ? d->rng : d->ace));
	drv_log(&padlock_log, "%s phe2=%s", units_text(units), state_word(d->phe2));

	for (i = 0; i < PADLOCK_UNITS && d->unit[i] == PADLOCK_ABSENT; i++)
		;
	if (i == PADLOCK_UNITS) {
		set_absent("%s0x%08x reports no unit", cpuid_edx, d->edx);
		return;
	}

	/* PHE block mode from the Nano on [LSHA]: the C7 hashes in one shot only. */
	d->phe_block_mode = d->family > PADLOCK_FAMILY_VIA ||
			    (d->family == PADLOCK_FAMILY_VIA && d->model >= PADLOCK_MODEL_NANO);
	if (d->rng == PADLOCK_ENABLED) {
		padlock_rng_setup();
		count_registration(padlock_rng_register(), XSTORE_DIVISORS);
	}
	if (d->ace == PADLOCK_ENABLED)
		count_registration(padlock_ace_register(), 1);
	if (d->phe == PADLOCK_ENABLED)
		count_registration(padlock_phe_register(), 2);
	/*
	 * montmul's behaviour is documented for VIA parts only (OpenSSL
	 * via-mont.pl): on Zhaoxin the known answer is a finding, and the
	 * benchmark gets the unit only after it gave the known answer.
	 */
	d->pmm_finding = d->pmm == PADLOCK_ENABLED && d->zhaoxin;
	if (d->pmm == PADLOCK_ENABLED && !d->pmm_finding)
		count_registration(padlock_pmm_register(), 1);
	engines_line(d);
	if (d->register_error)
		drv_log(&padlock_log, "engine registration failed: %s",
			 engine_strerror(d->register_error));
}

/*
 * The detection test: units decoded, engines registered. A unit CPUID
 * lists that could not be enabled is a promised unit of the probe
 * (padlock_driver_probe: `not ok` unless expect=none); here its note is
 * only repeated. Fails on a registration error.
 */
static enum drv_status t_detection(const void *ctx, char *out, size_t cap)
{
	struct padlock_dev *d = &padlock_dev;
	const char *ace_why = d->ace == PADLOCK_PRESENT ? d->enable_note[0] : "";
	const char *rng_why = d->rng == PADLOCK_PRESENT ? d->enable_note[1] : "";
	char units[UNITS_TEXT];
	(void)ctx;

	if (padlock_absent_reason()) {
		fmt_snprintf(out, cap, "%s", padlock_absent_reason());
		return DRV_SKIP;
	}
	/* When it passes, none of the reasons below is appended. */
	fmt_snprintf(out, cap, "%s, %u engines", units_text(units), d->engines);
	if (ace_why[0])
		fmt_append(out, cap, "; %s", ace_why);
	if (rng_why[0])
		fmt_append(out, cap, "; %s", rng_why);
	if (d->register_error)
		fmt_append(out, cap, "; engine registration failed: %s", engine_strerror(d->register_error));
	return d->register_error == 0 ? DRV_PASS : DRV_FAIL;
}

static const unsigned divisor[4] = { 0, 1, 2, 3 };

#define T_PMM_KAT	5	/* index of the montmul known answer in padlock_tests */

/*
 * Not const: the probe marks the montmul known answer a finding on
 * Zhaoxin (family 7), where no source says rep montmul behaves as on VIA.
 */
static struct driver_test padlock_tests[] = {
	{ "padlock: units detected and enabled", t_detection, NULL, false },
	{ "padlock: rng xstore divisor 0 status and data", padlock_t_xstore, &divisor[0], false },
	{ "padlock: rng xstore divisor 1 status and data", padlock_t_xstore, &divisor[1], false },
	{ "padlock: rng xstore divisor 2 status and data", padlock_t_xstore, &divisor[2], false },
	{ "padlock: rng xstore divisor 3 status and data", padlock_t_xstore, &divisor[3], false },
	[T_PMM_KAT] = { "padlock: pmm rep montmul 1024-bit known answer", padlock_t_pmm_kat, NULL, false },
	{ "padlock: ace work buffers (IV, bounce) wiped after use", padlock_t_ace_wipe, NULL, false },
	/* A finding: no public code uses rep xcrypt-ctr, its counter format is undocumented [OSSL]. */
	{ "padlock: ace2 hardware ctr probe (rep xcrypt-ctr, counter format unverified)",
	  padlock_t_ctr_probe, NULL, true },
};

/*
 * The probe. A unit CPUID 0xC0000001 lists as present whose documented
 * enable (ACE: FCR 0x1107 bit 28 or MSR 0x1257 bit 7; RNG: MSR 0x110B bit
 * 6 or 0x1257 bit 8 [LCEN]) did not take is a promised unit
 * (lib/engine/driver.h): `not ok` with the failed attempt as the reason.
 * Other absent units show as the SKIP of their tests, with the reason.
 */
static void padlock_driver_probe(const struct driver_facts *f, struct driver_probe *out)
{
	const struct padlock_dev *d = &padlock_dev;

	padlock_probe(f->cpu);
	padlock_tests[T_PMM_KAT].finding = d->pmm_finding;
	if (d->ace == PADLOCK_PRESENT && d->enable_note[0][0])
		driver_unit_promised(out, "padlock: ace enabled", "%s", d->enable_note[0]);
	if (d->rng == PADLOCK_PRESENT && d->enable_note[1][0])
		driver_unit_promised(out, "padlock: rng enabled", "%s", d->enable_note[1]);
}

const struct driver padlock_driver = {
	.name = "padlock",
	.probe = padlock_driver_probe,
	.tests = padlock_tests,
	.ntests = sizeof(padlock_tests) / sizeof(padlock_tests[0]),
	.log = &padlock_log,
};
