/*
 * Host test of kernel/platform/timer.c (i386 under qemu-i386), run by
 * tests/kernel/platform/timer.t. The TSC is hw_host's counter, read as a 1 GHz
 * clock; PIT channel 2 (ports 0x42/0x43/0x61) and an ACPI PM timer (port
 * 0x608) are modelled from it, each with its own rate error, and every port
 * access lets 1 us pass. QEMU's timers always agree, so only here can the
 * PIT/PM cross-check be shown to fail: the disagreement it reports must
 * match the rate error given to the models (a cross-check computed 1000x
 * too small would pass every boot test).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/platform/acpi.h"
#include "kernel/platform/timer.h"
#include "tests/host/hw_host.h"

#define TSC_HZ   1000000000ull
#define PM_PORT  0x608

#include "tests/host/tap_ok.h"

/* Rates in parts per million off nominal (positive: the timer runs fast). */
static struct {
	int64_t pit_ppm, pm_ppm;
	bool pm_present;
	/* PIT channel 2, mode 0: counts down from the reload once the gate is up. */
	uint8_t p61, mode;
	uint16_t reload;
	unsigned wr_byte, rd_byte;
	uint64_t gate_tsc;
	uint16_t latched;
} M;

static uint64_t ticks(uint64_t tsc, uint64_t hz, int64_t ppm)
{
	/* tsc cycles at 1 GHz -> timer ticks at hz * (1 + ppm/1e6) */
	return (uint64_t)((double)tsc * (double)hz * (1.0 + (double)ppm / 1e6) / (double)TSC_HZ);
}

static uint64_t pit_elapsed(void)
{
	return ticks(hw_host_tsc_peek() - M.gate_tsc, PIT_HZ, M.pit_ppm);
}

static uint32_t port_in(void *ctx, uint16_t port, unsigned bytes)
{
	uint32_t v = 0xFFFFFFFFu;
	(void)ctx;
	(void)bytes;
	hw_host_tsc_advance(1000);
	if (port == 0x61) {
		v = M.p61 & 0x0F;
		if ((M.p61 & 1) && pit_elapsed() > M.reload)
			v |= 0x20;      /* OUT2: the count passed zero */
	} else if (port == 0x42) {
		v = M.rd_byte++ % 2 ? M.latched >> 8 : M.latched & 0xFF;
	} else if (port == PM_PORT && M.pm_present) {
		v = (uint32_t)ticks(hw_host_tsc_peek(), PMTIMER_HZ, M.pm_ppm);
	}
	return v;
}

static void port_out(void *ctx, uint16_t port, uint32_t val, unsigned bytes)
{
	(void)ctx;
	(void)bytes;
	hw_host_tsc_advance(1000);
	if (port == 0x61) {
		if ((val & 1) && !(M.p61 & 1))
			M.gate_tsc = hw_host_tsc_peek();   /* gate raised: the count starts */
		M.p61 = (uint8_t)val;
	} else if (port == 0x43) {
		if ((val & 0xC0) == 0x80 && (val & 0x30) == 0) {   /* latch channel 2 */
			uint64_t e = (M.p61 & 1) ? pit_elapsed() : 0;
			M.latched = (uint16_t)(M.reload - e);
			M.rd_byte = 0;
		} else if ((val & 0xC0) == 0x80) {
			M.mode = (uint8_t)val;
			M.wr_byte = 0;
		}
	} else if (port == 0x42) {
		if (M.wr_byte++ % 2 == 0)
			M.reload = (uint16_t)((M.reload & 0xFF00) | (val & 0xFF));
		else
			M.reload = (uint16_t)((M.reload & 0x00FF) | ((val & 0xFF) << 8));
	}
}

/* The test decides whether ACPI names a PM timer (instead of kernel_stubs.c). */
bool acpi_find_pm_timer(struct acpi_pm_timer *t)
{
	if (!M.pm_present)
		return false;
	memset(t, 0, sizeof(*t));
	t->port = PM_PORT;
	t->ext32 = false;
	return true;
}

static struct tsc_calibration run(int64_t pit_ppm, int64_t pm_ppm, bool pm)
{
	struct tsc_calibration c;
	hw_host_reset();
	hw_host_set_tsc_step(20);
	memset(&M, 0, sizeof(M));
	M.pit_ppm = pit_ppm;
	M.pm_ppm = pm_ppm;
	M.pm_present = pm;
	hw_host_set_ports(port_in, port_out, NULL);
	memset(&c, 0, sizeof(c));
	timer_calibrate(&c);
	printf("# pit_ppm=%lld pm_ppm=%lld: pit_ok=%d pit_hz=%llu pm_ok=%d pm_hz=%llu disagreement_ppm=%u%s%s\n",
	       (long long)pit_ppm, (long long)pm_ppm, c.pit_ok, (unsigned long long)c.pit_hz, c.pm_ok,
	       (unsigned long long)c.pm_hz, c.disagreement_ppm, c.error ? " error: " : "",
	       c.error ? c.error : "");
	return c;
}

/* |got - want| <= tol */
static int near(int64_t got, int64_t want, int64_t tol)
{
	return got - want <= tol && want - got <= tol;
}

int main(void)
{
	struct tsc_calibration c;

	printf("TAP version 13\n");
	c = run(0, 0, true);
	ok(c.pit_ok && c.pm_ok && near((int64_t)c.pit_hz, 1000000000, 200000) &&
	   near((int64_t)c.pm_hz, 1000000000, 200000),
	   "timers at their nominal rates: both calibrations give the 1 GHz TSC (within 0.02%)");
	ok(c.disagreement_ppm <= 300, "timers at their nominal rates: they agree (under 300 ppm)");

	/* The PM timer 1% fast: the TSC looks 1% slower against it. */
	c = run(0, 10000, true);
	ok(c.pit_ok && c.pm_ok && near(c.disagreement_ppm, 9901, 300),
	   "PM timer 1% fast: disagreement_ppm ~9900 (the cross-check sees it)");
	ok(c.disagreement_ppm > 5000, "PM timer 1% fast: beyond the kernel's 0.5% limit");

	/* The PIT 0.3% slow: the TSC looks 0.3% faster against it. */
	c = run(-3000, 0, true);
	ok(c.pit_ok && c.pm_ok && near(c.disagreement_ppm, 3000, 300),
	   "PIT 0.3% slow: disagreement_ppm ~3000 (within the 0.5% limit)");

	/* 5% apart: a large error is not folded or truncated. */
	c = run(25000, -25000, true);
	ok(c.pit_ok && c.pm_ok && near(c.disagreement_ppm, 51282, 600),
	   "PIT 2.5% fast, PM timer 2.5% slow: disagreement_ppm ~51300 (|1/0.975 - 1/1.025| / (1/1.025))");

	/* No PM timer: no cross-check, the PIT alone. */
	c = run(0, 0, false);
	ok(c.pit_ok && !c.pm_found && c.disagreement_ppm == 0 && near((int64_t)c.pit_hz, 1000000000, 200000),
	   "no ACPI PM timer: the PIT alone calibrates, no disagreement claimed");

	printf("1..%d\n", n);
	return failed != 0;
}
