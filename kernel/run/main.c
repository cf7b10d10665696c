/*
 * kmain: the whole run, in order. Each stage prints `#` diagnostics and TAP
 * results; the report always ends with the plan and the summary line.
 */
#include <stdint.h>
#include <string.h>

#include "lib/platform/cmdline.h"
#include "lib/util/escape.h"
#include "lib/util/fmt.h"
#include "lib/crypto/montmul.h"
#include "lib/crypto/sha.h"
#include "kernel/run/bench.h"
#include "kernel/run/driver_run.h"
#include "kernel/platform/console.h"
#include "kernel/platform/cpu.h"
#include "lib/engine/engine.h"
#include "kernel/platform/emulate.h"
#include "kernel/platform/exceptions.h"
#include "kernel/platform/fpu.h"
#include "kernel/platform/hw.h"
#include "kernel/run/identity.h"
#include "kernel/run/kat_run.h"
#include "kernel/run/net_report.h"
#include "kernel/platform/memmap.h"
#include "kernel/platform/multiboot.h"
#include "kernel/platform/pci_bus.h"
#include "kernel/run/report.h"
#include "kernel/run/rng_report.h"
#include "kernel/run/selftest.h"
#include "kernel/platform/timer.h"
#include "kernel/platform/watchdog.h"
#include "kernel/platform/x86.h"

#ifndef CQ_VERSION
#define CQ_VERSION "unknown"
#endif

extern char __image_start[], __image_data_end[];

#define WARN_LINES 16
#define DEFAULT_CROSSCHECK_SEED 0x5EED2026u   /* fixed: the same log every run */

static struct {
	char cmdline[CMDLINE_MAX + 64];
	char loader[64];
	struct cq_options opt;
	char warnings[WARN_LINES][CMDLINE_WARN_MAX];
	unsigned nwarn;
	char image_sha256[2 * SHA256_DIGEST_BYTES + 1];
} boot;

static void collect_warning(void *ctx, const char *msg)
{
	(void)ctx;
	if (boot.nwarn < WARN_LINES)
		fmt_snprintf(boot.warnings[boot.nwarn], CMDLINE_WARN_MAX, "%s", msg);
	boot.nwarn++;
}

/*
 * SHA-256 of the loaded image ([__image_start, __image_data_end): code,
 * read-only data and initialised data as the loader placed them), taken
 * before anything writes .data. It equals `sha256sum` of
 * `objcopy -O binary build/cryptoqual.elf` (make prints it as build/cryptoqual.sha256).
 */
static void hash_image(void)
{
	uint8_t d[SHA256_DIGEST_BYTES];
	unsigned i;
	sha256(__image_start, (size_t)(__image_data_end - __image_start), d);
	for (i = 0; i < SHA256_DIGEST_BYTES; i++)
		fmt_snprintf(boot.image_sha256 + 2 * i, 3, "%02x", d[i]);
}

static bool is_qemu_platform(void)
{
	/* QEMU gives its PCI devices subsystem IDs 1af4:1100 (hw/pci/pci.c). */
	int n, i;
	const struct pci_dev *d = pci_devices(&n);
	for (i = 0; i < n; i++) {
		if (d[i].header_type != PCI_HDR_NORMAL)
			continue;
		if ((pci_cfg_read32(&d[i], 0x2C) & 0xFFFF) == 0x1AF4)
			return true;
	}
	return false;
}

#define ECHO_CMDLINE_MAX 300   /* characters of the command line echoed, escaped */

static void stage_identity(uint32_t magic, const struct multiboot_info *mbi)
{
	char line[CMDLINE_DESCRIBE_MAX];
	char esc[ECHO_CMDLINE_MAX + 1];
	unsigned i;

	tap_diag("cryptoqual %s image-sha256=%s", CQ_VERSION, boot.image_sha256);
	if (magic != MULTIBOOT_LOADER_MAGIC)
		tap_diag("warning: not started by a multiboot loader (EAX=0x%08x): no command line or memory map",
			 magic);
	/* Everything from outside is escaped: one line stays one line. */
	esc_line(esc, sizeof(esc), boot.loader, sizeof(boot.loader), 63);
	tap_diag("loader: %s", boot.loader[0] ? esc : "(no name given)");
	esc_line(esc, sizeof(esc), boot.cmdline, sizeof(boot.cmdline), ECHO_CMDLINE_MAX);
	tap_diag("cmdline: %s", (mbi && (mbi->flags & MB_INFO_CMDLINE)) ? esc : "(none)");
	if (boot.opt.loader_image[0]) {
		esc_line(esc, sizeof(esc), boot.opt.loader_image, sizeof(boot.opt.loader_image), 120);
		tap_diag("cmdline: loader image name '%s' skipped", esc);
	}
	for (i = 0; i < boot.nwarn && i < WARN_LINES; i++)
		tap_diag("warning: %s", boot.warnings[i]);
	if (boot.nwarn > WARN_LINES)
		tap_diag("warning: %u more command-line warnings not shown", boot.nwarn - WARN_LINES);
	emulate_report();
	cmdline_describe(&boot.opt, line, sizeof(line));
	tap_diag("options: %s", line);
	console_describe(line, sizeof(line));
	tap_diag("console: %s", line);
	if (console_warning(line, sizeof(line)))
		tap_diag("warning: %s", line);
}

/* The box's identity (kernel/run/identity.c), once records can carry their time. */
static void stage_machine(void)
{
	char emu[64];
	fmt_snprintf(emu, sizeof(emu), "%s%s%s", emulate_profile(), emulate_fault()[0] ? ",fault=" : "",
		     emulate_fault());
	identity_report(CQ_VERSION, boot.image_sha256, emu, boot.opt.asset, boot.opt.tag);
}

static void stage_cpu(void)
{
	const struct cpu_info *c;
	cpu_init();
	c = cpu();
	cpu_report();
	if (boot.opt.verbose)
		cpu_dump_leaves();
	tap_result(c->vendor[0] != '\0' && c->family >= 5,
		   "cpu: CPUID identity decoded (%s family %u model %u stepping %u)",
		   c->vendor, c->family, c->model, c->stepping);
}

#define CAL_ATTEMPTS        3     /* a broken timer disagrees every time */
#define CAL_MAX_DISAGREE_PPM 5000 /* 0.5 % */

static void stage_timers(void)
{
	struct tsc_calibration cal;
	char mhz[32], pm_mhz[32];
	unsigned attempt;

	if (!cpu()->tsc) {
		tap_result(false, "timer: TSC present (CPUID.1:EDX.TSC is clear: no cycle counts possible)");
		return;
	}
	/*
	 * PIT and PM timer normally come from the same crystal and agree to a
	 * few ppm. One disturbed calibration (an SMI storm on hardware, a
	 * descheduled emulator on a loaded host) is retried; a timer that
	 * disagrees on every attempt fails the test.
	 */
	for (attempt = 1; attempt <= CAL_ATTEMPTS; attempt++) {
		timer_calibrate(&cal);
		if (!cal.pit_ok || !cal.pm_ok || cal.disagreement_ppm <= CAL_MAX_DISAGREE_PPM)
			break;
		tap_diag("timer: attempt %u: PIT and PM timer disagree by %u ppm; calibrating again",
			 attempt, cal.disagreement_ppm);
	}
	report_set_clock(tsc_hz());	/* from here on, every record carries its time */
	bench_report_calibration(&cal);
	fmt_fixed(mhz, sizeof(mhz), (int64_t)(cal.pit_hz / 1000), 3);
	if (cal.error)
		tap_diag("timer: %s", cal.error);
	tap_diag("timer: tsc_mhz_pit=%s window=%u PIT ticks", mhz, cal.pit_ticks);
	tap_result(cal.pit_ok && cal.pit_hz >= 20000000ull && cal.pit_hz <= 20000000000ull,
		   "timer: TSC calibrated against PIT channel 2 (%s MHz)", mhz);
	if (!cal.pm_found) {
		tap_skip("no ACPI PM timer found (no RSDP/FADT)",
			 "timer: TSC calibration against the ACPI PM timer");
		return;
	}
	fmt_fixed(pm_mhz, sizeof(pm_mhz), (int64_t)(cal.pm_hz / 1000), 3);
	tap_diag("timer: tsc_mhz_pmtimer=%s port=0x%x %s", pm_mhz, cal.pm_port,
		 cal.pm_ext32 ? "32-bit" : "24-bit");
	tap_diag("timer: disagreement_ppm=%u", cal.disagreement_ppm);
	tap_result(cal.pm_ok && cal.pit_ok && cal.disagreement_ppm <= CAL_MAX_DISAGREE_PPM,
		   "timer: PIT and ACPI PM timer calibrations agree within 0.5%% (%u ppm)",
		   cal.disagreement_ppm);
}

/* The host bridge (class 06.00) on bus 0: 00:00.0 on most PCs, 00:01.0 on the Geode LX. */
static const struct pci_dev *host_bridge(const struct pci_dev *d, int n)
{
	int i;
	for (i = 0; i < n; i++)
		if (d[i].bus == 0 && d[i].class_code == PCI_CLASS_BRIDGE && d[i].subclass == PCI_SUB_HOST)
			return &d[i];
	return NULL;
}

static void stage_pci(void)
{
	int n;
	const struct pci_dev *d, *hb;

	if (!pci_mech1_present()) {
		tap_result(false, "pci: configuration mechanism #1 answers at 0xCF8/0xCFC");
		return;
	}
	tap_result(true, "pci: configuration mechanism #1 answers at 0xCF8/0xCFC");
	n = pci_scan();
	pci_report();
	d = pci_devices(&n);
	hb = host_bridge(d, n);
	if (hb)
		tap_result(true, "pci: enumeration found a host bridge on bus 0 (%d functions, host bridge at %02x:%02x.%x)",
			   n, hb->bus, hb->dev, hb->fn);
	else
		tap_result(false, "pci: enumeration found a host bridge on bus 0 (%d functions, none a host bridge)", n);
}

/* Whether an engine or source called name (or "name/...") is registered. */
static bool engine_named(const char *name, size_t len)
{
	const char *n[ENGINE_MAX_AES + ENGINE_MAX_RNG + ENGINE_MAX_HASH + ENGINE_MAX_MONTMUL];
	unsigned i, k = 0;

	for (i = 0; i < engine_aes_count(); i++)
		n[k++] = engine_aes(i)->name;
	for (i = 0; i < engine_rng_count(); i++)
		n[k++] = engine_rng(i)->name;
	for (i = 0; i < engine_hash_count(); i++)
		n[k++] = engine_hash(i)->name;
	for (i = 0; i < engine_montmul_count(); i++)
		n[k++] = engine_montmul(i)->name;
	for (i = 0; i < k; i++)
		if (strncmp(n[i], name, len) == 0 && (n[i][len] == '\0' || n[i][len] == '/'))
			return true;
	return false;
}

/*
 * expect=NAME,...: each named engine (the names the report uses,
 * docs/cmdline.md) must be registered: one `expect: NAME present`
 * result each, not ok when the box lacks it (the probe's lines say why).
 */
static void stage_expect(void)
{
	const char *s = boot.opt.expect, *e;
	char name[CQ_EXPECT_MAX + 1];

	if (!s[0] || strcmp(s, "none") == 0)
		return;
	for (; *s; s = *e ? e + 1 : e) {
		e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		fmt_snprintf(name, sizeof(name), "%.*s", (int)(e - s), s);
		report_subject("expect", RSUM_PROBE);   /* the option's own row */
		if (engine_named(s, (size_t)(e - s)))
			tap_result(true, "expect: %s present (expect=)", name);
		else
			tap_result(false, "expect: %s present (expect=): no engine or source of that name registered",
				   name);
	}
	report_subject(NULL, RSUM_PROBE);
}

/*
 * A run whose options skipped a stage or shrank it, or whose command line
 * had options that were ignored, says so on its verdict line.
 */
static void note_partial_options(void)
{
	char esc[2 * CQ_ONLY_MAX + 8];

	if (boot.nwarn)
		report_partial("%u command-line option%s ignored", boot.nwarn, boot.nwarn == 1 ? "" : "s");
	if (boot.opt.bench == CQ_BENCH_OFF)
		report_partial("bench=off");
	if (boot.opt.only[0]) {
		esc_value(esc, sizeof(esc), boot.opt.only, CQ_ONLY_MAX + 1, sizeof(esc) - 1);
		report_partial("only=%s", esc);
	}
	if (boot.opt.rng_bytes && boot.opt.rng_bytes < RNG_DEFAULT_BYTES)
		report_partial("rng_bytes=%u below the default %u", (unsigned)boot.opt.rng_bytes,
			       (unsigned)RNG_DEFAULT_BYTES);
}

/*
 * Software Montgomery multiplication on the SSE2 path (what OpenSSL's
 * bn_mul_mont runs on an SSE2 CPU) once SSE is on, if it reproduces the
 * 1024-bit known answer; else it stays on the integer path, with a warning.
 */
static void montmul_pick_path(void)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t t[MONTMUL_KAT_WORDS + 2], r[MONTMUL_KAT_WORDS];

	montmul_raw_sse2(t, k->a, k->b, k->m, montmul_n0(k->m[0]), MONTMUL_KAT_WORDS);
	montmul_final_sub(r, t, k->m, MONTMUL_KAT_WORDS);
	if (memcmp(r, k->expect, sizeof(r)) == 0)
		montmul_use(montmul_raw_sse2, "sse2");
	else
		tap_diag("warning: montmul: the SSE2 path misses the 1024-bit known answer (words 31..30 %08x %08x, expected %08x %08x): software stays on the integer path",
			 r[31], r[30], k->expect[31], k->expect[30]);
}

/*
 * Registers every engine this machine has: the software ones always, then
 * each driver's after its probe (kernel/run/driver_table.c). A unit that
 * is absent gets one SKIP line with the reason, so the report says why its
 * tests are missing.
 */
static void stage_engines(void)
{
	struct driver_facts f;
	int n;

	engine_register_software();
	if (cpu()->sse && !fpu_enable_sse())
		tap_diag("fpu: could not enable SSE");
	f.cpu = cpu();
	f.pci = pci_devices(&n);
	f.npci = n;
	f.sse_enabled = fpu_sse_enabled();
	if (f.sse_enabled && cpu()->sse2)
		montmul_pick_path();
	driver_run_expect_none(strcmp(boot.opt.expect, "none") == 0);
	drivers_probe(&f);	/* after pci_scan() and the TSC calibration (time bounds) */
	stage_expect();
}

struct rng_smoke {
	const struct rng_source *src;
	int rc;			/* the read's return (engine.h ENGINE_E*) */
	size_t got;		/* bytes it delivered */
	bool all_equal;		/* 64 bytes delivered, all of them buf[0] */
	uint8_t first;
};

/* Reads 64 bytes from the source. */
static void rng_smoke_read(void *p)
{
	struct rng_smoke *s = p;
	const struct rng_source *r = s->src;
	uint8_t buf[64];
	size_t i;

	s->got = 0;
	s->rc = r->read(r, buf, sizeof(buf), &s->got);
	if (s->rc != 0)
		return;
	s->first = buf[0];
	s->all_equal = true;
	for (i = 1; i < sizeof(buf); i++)
		if (buf[i] != buf[0])
			s->all_equal = false;
}

/* A judged source: 64 bytes that are not all equal, or not ok. */
static void rng_smoke_judged(const char *name, struct rng_smoke *s)
{
	if (!report_guarded_call(name, rng_smoke_read, s, TAP_RUN_BUDGET_MS))
		return;
	if (s->rc != 0)
		tap_diag("rng: %s: %s after %u bytes", s->src->name, engine_strerror(s->rc), (unsigned)s->got);
	else if (s->all_equal)
		tap_diag("rng: %s: 64 bytes all 0x%02x", s->src->name, s->first);
	tap_result(s->rc == 0 && !s->all_equal, "%s", name);
}

/* A characterised source: whatever it does, a fault or a hang included, is noted, never not ok. */
static void rng_smoke_characterised(const char *name, struct rng_smoke *s)
{
	char why[96];

	if (!report_guarded_try(name, rng_smoke_read, s, TAP_RUN_BUDGET_MS, why, sizeof(why)))
		tap_diag("rng: %s: characterised, not judged: %s", s->src->name, why);
	else if (s->rc != 0)
		tap_diag("rng: %s: characterised, not judged: %s after %u bytes", s->src->name,
			 engine_strerror(s->rc), (unsigned)s->got);
	else if (s->all_equal)
		tap_diag("rng: %s: characterised, not judged: 64 bytes all 0x%02x", s->src->name, s->first);
	else {
		tap_result(true, "%s", name);
		return;
	}
	report_result_note(true, name, "characterised, not judged");
}

/*
 * Every registered RNG source delivers 64 bytes that are not all equal.
 * Only a source judged by its documented use (engine.h RNG_CLAIM_FULL) can
 * be not ok; a characterised one (RNG_CLAIM_CHARACTERISE: a mode no public
 * driver uses, docs/rng-verdict.md) is reported.
 */
static void stage_rng_smoke(void)
{
	unsigned i;
	char name[80];
	for (i = 0; i < engine_rng_count(); i++) {
		struct rng_smoke s = { engine_rng(i), 0, 0, false, 0 };
		if (s.src->known_bad)
			continue;
		fmt_snprintf(name, sizeof(name), "rng: %s source delivers 64 bytes", s.src->name);
		report_subject(s.src->name, RSUM_RNG);
		if (!report_selected(name))
			tap_skip("not selected by only=", "%s", name);
		else if (s.src->claim == RNG_CLAIM_CHARACTERISE)
			rng_smoke_characterised(name, &s);
		else
			rng_smoke_judged(name, &s);
		report_subject(NULL, RSUM_PROBE);
	}
}

static void stage_bench(void)
{
	struct bench_options o;

	o.scope = boot.opt.bench == CQ_BENCH_OFF ? BENCH_OFF
		  : boot.opt.bench == CQ_BENCH_FULL ? BENCH_FULL : BENCH_QUICK;
	o.cell_ms = boot.opt.bench_ms;
	o.verbose = boot.opt.verbose;
	/* On an emulated machine the long cells of bench=full measure the
	 * models and QEMU, not a box: its scope, at bench=quick's cell length. */
	if (o.scope == BENCH_FULL && o.cell_ms == 0 && strcmp(emulate_profile(), "none") != 0) {
		o.cell_ms = BENCH_QUICK_MS;
		tap_diag("bench: bench=full on the emulated %s: %u ms per cell instead of %u (an emulated machine's figures are its models', docs/emulation.md)",
			 emulate_profile(), (unsigned)BENCH_QUICK_MS, (unsigned)BENCH_FULL_MS);
	}
	bench_run(&o);
}

#define SOAK_PASSES_KEPT 64	/* passes with a row of their own in the soak summary */

/*
 * The bounded soak (passes=N, duration=MINUTES): the KATs, cross-checks,
 * the drivers' own checks (DMA guard bytes, wipes) and the RNG tests again,
 * pass after pass, each pass with its own cross-check seed; one progress
 * line per pass with the running counts, then one summary line per pass.
 * Any not ok in any pass fails the run (the verdict counts every result).
 * Stops after N passes, or at the first pass boundary past the duration.
 */
static void stage_soak(void)
{
	static struct { unsigned ok, not_ok; int64_t tenths; } pass[SOAK_PASSES_KEPT];
	uint32_t seed = boot.opt.has_seed ? boot.opt.seed : DEFAULT_CROSSCHECK_SEED;
	int64_t limit = (int64_t)boot.opt.duration_min * 600;
	unsigned p, ok0, bad0, hid0, quiet0, worst = 0, first_failed = 0;
	int64_t t0;
	char t[24];

	if (!boot.opt.passes && !boot.opt.duration_min)
		return;
	if (limit && report_tenths() < 0) {
		tap_result(false, "soak: duration=%u needs a calibrated clock", (unsigned)boot.opt.duration_min);
		return;
	}
	if (boot.opt.passes && limit)
		tap_diag("soak: up to %u passes, for at most %u minutes", (unsigned)boot.opt.passes,
			 (unsigned)boot.opt.duration_min);
	else if (boot.opt.passes)
		tap_diag("soak: %u passes", (unsigned)boot.opt.passes);
	else
		tap_diag("soak: passes for %u minutes", (unsigned)boot.opt.duration_min);
	for (p = 1;; p++) {
		if (boot.opt.passes && p > boot.opt.passes)
			break;
		if (limit && report_tenths() >= limit)
			break;
		ok0 = report_ok();
		bad0 = report_not_ok();
		hid0 = report_skips_hidden();
		quiet0 = report_oks_quiet();
		t0 = report_tenths();
		report_set_pass(p);
		emulate_soak_pass(p);
		drivers_selftests();
		kat_run_all();
		drivers_flush_logs();
		crosscheck_run_all(seed + p);
		drivers_flush_logs();
		rng_report_run(boot.opt.rng_bytes, boot.opt.verbose);
		drivers_flush_logs();
		report_set_pass(0);
		report_time(t, sizeof(t));
		tap_diag("soak: pass %u done at t=%s: %u ok, %u not ok in this pass (ok lines not printed, %u skipped as in the first run); %u ok, %u not ok so far",
			 p, t, report_ok() - ok0 + report_oks_quiet() - quiet0, report_not_ok() - bad0,
			 report_skips_hidden() - hid0, report_ok() + report_oks_quiet(), report_not_ok());
		report_soak_pass(p, report_not_ok() - bad0);
		if (report_not_ok() > bad0 && !first_failed) {
			first_failed = p;
			tap_diag("soak: pass %u is the first of the soak with a failure", p);
		}
		if (p <= SOAK_PASSES_KEPT) {
			pass[p - 1].ok = report_ok() - ok0 + report_oks_quiet() - quiet0;
			pass[p - 1].not_ok = report_not_ok() - bad0;
			pass[p - 1].tenths = t0 < 0 ? -1 : report_tenths() - t0;
		}
	}
	p--;
	for (ok0 = 0; ok0 < p && ok0 < SOAK_PASSES_KEPT; ok0++) {
		if (pass[ok0].tenths < 0)
			fmt_snprintf(t, sizeof(t), "unknown");
		else
			fmt_fixed(t, sizeof(t), pass[ok0].tenths, 1);
		tap_diag("@soak pass=%u ok=%u not_ok=%u seconds=%s", ok0 + 1, pass[ok0].ok, pass[ok0].not_ok, t);
		if (pass[ok0].not_ok > pass[worst].not_ok)
			worst = ok0;
	}
	if (p && pass[worst].not_ok)
		tap_diag("soak: worst pass %u: %u not ok (every pass: the @soak records above)", worst + 1,
			 pass[worst].not_ok);
	else if (p)
		tap_diag("soak: every pass passed (%u pass%s)", p, p == 1 ? "" : "es");
	tap_result(p > 0, "soak: %u pass%s run", p, p == 1 ? "" : "es");
}

/* Called from boot/entry.S. */
CQ_ASMLINKAGE void kmain(uint32_t magic, const struct multiboot_info *mbi);

CQ_ASMLINKAGE void kmain(uint32_t magic, const struct multiboot_info *mbi)
{
	hash_image();
	gdt_idt_init();
	fpu_x87_init();         /* CR0.NE = 1: x87 errors raise #MF */
	watchdog_init();        /* PIC remapped, IRQ 0 only; interrupts stay off */
	if (magic != MULTIBOOT_LOADER_MAGIC ||
	    !mb_range_ok((uint32_t)(uintptr_t)mbi, sizeof(*mbi)))
		mbi = NULL;     /* no loader, or an info pointer that wraps */
	if (mbi && (mbi->flags & MB_INFO_CMDLINE))
		mb_copy_string(boot.cmdline, sizeof(boot.cmdline), mbi->cmdline);
	if (mbi && (mbi->flags & MB_INFO_LOADER_NAME))
		mb_copy_string(boot.loader, sizeof(boot.loader), mbi->boot_loader_name);
	cmdline_defaults(&boot.opt);
	cmdline_parse(boot.cmdline[0] ? boot.cmdline : NULL, &boot.opt, collect_warning, NULL);
	emulate_init(boot.opt.emulate, boot.opt.fault);	/* before anything reads CPUID or PCI */
	memmap_init(mbi);

	console_init(boot.opt.console_port, boot.opt.console_baud);
	net_report_begin(&boot.opt, boot.loader);	/* keeps the log from its first line */
	report_set_finish(boot.opt.on_finish == CQ_FINISH_REBOOT ? FINISH_REBOOT : FINISH_HALT);
	report_set_only(boot.opt.only);
	note_partial_options();
	report_begin();
	report_stage("boot");
	stage_identity(magic, mbi);
	memmap_report();
	stage_cpu();
	stage_pci();
	report_set_qemu(is_qemu_platform() || emulate_on_qemu());
	stage_timers();
	report_set_clock(tsc_hz());
	stage_machine();
	net_report_up();	/* needs the PCI scan, the clock and the box key */
	report_stage("probe");
	selftest_run(boot.opt.selftest);
	stage_engines();
	drivers_selftests();
	report_stage("kat");
	kat_run_all();
	drivers_flush_logs();
	report_stage("crosscheck");
	crosscheck_run_all(boot.opt.has_seed ? boot.opt.seed : DEFAULT_CROSSCHECK_SEED);
	drivers_flush_logs();
	report_stage("rng");
	stage_rng_smoke();
	drivers_flush_logs();
	rng_report_run(boot.opt.rng_bytes, boot.opt.verbose);
	drivers_flush_logs();
	report_stage("bench");
	stage_bench();
	drivers_flush_logs();
	report_stage("soak");
	stage_soak();
	drivers_flush_logs();
	report_stage("finish");
	emulate_finish();
	report_finish();
}
