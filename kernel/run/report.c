/* report: TAP version 14 output and the end of the run. See report.h. */
#include "kernel/run/report.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "lib/util/fmt.h"
#include "kernel/platform/console.h"
#include "kernel/platform/exceptions.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/x86.h"

static struct {
	unsigned n;
	unsigned ok, not_ok, skipped;
	bool is_qemu;
	enum finish_action finish;
	const char *only;
} rep;

void report_set_only(const char *pattern)
{
	rep.only = (pattern && pattern[0]) ? pattern : NULL;
}

/* Whether needle occurs in hay. */
static bool contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return true;
	return false;
}

bool report_selected(const char *name)
{
	return !rep.only || contains(name, rep.only);
}

void report_begin(void)
{
	kprintf("TAP version 14\n");
}

void report_set_qemu(bool is_qemu)
{
	rep.is_qemu = is_qemu;
}

void report_set_finish(enum finish_action a)
{
	rep.finish = a;
}

unsigned report_ok(void) { return rep.ok; }
unsigned report_not_ok(void) { return rep.not_ok; }
unsigned report_skipped(void) { return rep.skipped; }

void tap_diag(const char *fmt, ...)
{
	va_list ap;
	kprintf("# ");
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
}

static void result_line(const char *status, const char *fmt, va_list ap)
{
	rep.n++;
	kprintf("%s %u - ", status, rep.n);
	kvprintf(fmt, ap);
}

bool tap_result(bool ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	result_line(ok ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	kprintf("\n");
	if (ok)
		rep.ok++;
	else
		rep.not_ok++;
	return ok;
}

void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	result_line("ok", fmt, ap);
	va_end(ap);
	kprintf(" # SKIP %s\n", reason);
	rep.skipped++;
}

struct run_ctx {
	bool (*fn)(void *ctx);
	void *ctx;
	bool result;
};

static void run_trampoline(void *p)
{
	struct run_ctx *r = p;
	r->result = r->fn(r->ctx);
}

bool tap_run(const char *name, bool (*fn)(void *ctx), void *ctx)
{
	struct run_ctx r = { fn, ctx, false };
	struct fault_info fi;

	if (!report_selected(name)) {
		tap_skip("not selected by only=", "%s", name);
		return false;   /* it did not run: callers must not use its results */
	}
	if (!guard_run(name, run_trampoline, &r, &fi))
		return tap_result(false, "%s # fault: %s at EIP %08x", name,
				  exc_mnemonic(fi.vector), fi.eip);
	return tap_result(r.result, "%s", name);
}

static void __attribute__((noreturn)) finish_machine(uint8_t qemu_status)
{
	if (rep.is_qemu)
		hw_outb(QEMU_EXIT_PORT, qemu_status);   /* QEMU ends here */
	if (rep.finish == FINISH_REBOOT) {
		/* 8042 pulse reset line, then the PCI reset control register (0xCF9). */
		hw_outb(0x64, 0xFE);
		hw_outb(0xCF9, 0x06);
	}
	for (;;) {
		x86_cli();
		x86_hlt();
	}
}

void report_finish(void)
{
	bool pass = rep.not_ok == 0;
	kprintf("1..%u\n", rep.n);
	kprintf("cryptoqual: %s (%u ok, %u not ok, %u skipped)\n", pass ? "PASS" : "FAIL",
		rep.ok, rep.not_ok, rep.skipped);
	finish_machine(pass ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL);
}

void report_bail_out(const char *reason)
{
	kprintf("Bail out! %s\n", reason);
	kprintf("cryptoqual: FAIL (%u ok, %u not ok, %u skipped; crashed: %s)\n",
		rep.ok, rep.not_ok, rep.skipped, reason);
	finish_machine(QEMU_EXIT_CRASH);
}
