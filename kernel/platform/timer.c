/* TSC calibration against PIT channel 2 and the ACPI PM timer. See timer.h. */
#include "kernel/platform/timer.h"

#include "lib/measure/bench_stats.h"
#include "kernel/platform/acpi.h"
#include <stddef.h>

#include "kernel/platform/hw.h"
#include "lib/util/wait.h"

/* Intel 8254 PIT and the PC's port 0x61 (NMI status and control). */
#define PIT_CH2_DATA   0x42
#define PIT_MODE       0x43
#define   PIT_MODE_CH2_LOHI_MODE0 0xB0   /* channel 2, lo/hi byte, mode 0, binary */
#define PORT_61        0x61
#define   P61_GATE2    0x01              /* timer 2 gate */
#define   P61_SPKR     0x02              /* speaker data enable */
#define   P61_OUT2     0x20              /* timer 2 output, read-only */

#define   PIT_LATCH_CH2 0x80             /* counter latch command, channel 2 */

#define CAL_WINDOW_MS     20             /* well under 55 ms: the 16-bit PIT count must not wrap */
#define CAL_ROUNDS        5              /* median of 5 windows per timer */
#define CAL_MAX_SPINS     20000000u      /* bound on any calibration loop */
#define REF_TRIES         8              /* bracketed reads per reference point */
#define CAL_WINDOW_TRIES  8              /* a disturbed (wrapped) window is measured again */

static uint64_t g_tsc_hz;

/*
 * A reference point: a timer value and the TSC at the moment it was read.
 * The read is bracketed by two TSC reads and repeated REF_TRIES times; the
 * try with the narrowest bracket wins and its midpoint is the TSC value.
 * A read that was interrupted (an SMI, or the emulator's thread being
 * descheduled) has a wide bracket and loses, so it cannot skew the result
 * the way a single late "terminal count reached" observation can.
 */
struct ref_point {
	uint64_t tsc;
	uint32_t timer;
};

static struct ref_point read_ref(uint32_t (*read_timer)(void *ctx), void *ctx)
{
	struct ref_point best = { 0, 0 };
	uint64_t best_width = ~0ull;
	unsigned i;
	for (i = 0; i < REF_TRIES; i++) {
		uint64_t t1 = hw_rdtsc();
		uint32_t v = read_timer(ctx);
		uint64_t t2 = hw_rdtsc();
		if (t2 - t1 < best_width) {
			best_width = t2 - t1;
			best.tsc = t1 + (t2 - t1) / 2;
			best.timer = v;
		}
	}
	return best;
}

/* PIT channel 2 current count (counts down), through the latch command. */
static uint32_t pit2_read(void *ctx)
{
	uint8_t lo, hi;
	(void)ctx;
	hw_outb(PIT_MODE, PIT_LATCH_CH2);
	lo = hw_inb(PIT_CH2_DATA);
	hi = hw_inb(PIT_CH2_DATA);
	return (uint32_t)lo | ((uint32_t)hi << 8);
}

/* A timer counter that must advance by ticks from from (mask: its width; down: counts down). */
struct advance {
	uint32_t (*read)(void *ctx);
	void *ctx;
	uint32_t from, ticks, mask;
	bool down;
};

static bool advanced(void *p)
{
	const struct advance *a = p;
	uint32_t v = a->read(a->ctx);

	return ((a->down ? a->from - v : v - a->from) & a->mask) >= a->ticks;
}

/* Waits, at most CAL_MAX_SPINS reads (no clock is calibrated yet), for the counter to advance. */
static bool wait_advance(struct advance *a)
{
	return wait_poll(advanced, a, wait_poll_count, CAL_MAX_SPINS, NULL, NULL);
}

/*
 * PIT channel 2 in mode 0 counts down from 0xFFFF once its gate is raised
 * (8254 data sheet, mode 0). Two bracketed reads of the count, 20 ms apart,
 * against the TSC.
 */
static bool calibrate_pit(uint64_t *hz, uint32_t *ticks_out)
{
	uint32_t target = PIT_HZ * CAL_WINDOW_MS / 1000;  /* 23863 ticks */
	uint8_t p61 = hw_inb(PORT_61);
	struct ref_point a, b;
	/* The count loads on the next PIT clock: wait until it is below 0xFFFE. */
	struct advance start = { pit2_read, NULL, 0xFFFF, 2, 0xFFFF, true };
	struct advance window = { pit2_read, NULL, 0, target, 0xFFFF, true };
	uint32_t elapsed;
	bool wrapped;

	hw_outb(PORT_61, (uint8_t)((p61 & ~P61_SPKR) & ~P61_GATE2));
	hw_outb(PIT_MODE, PIT_MODE_CH2_LOHI_MODE0);
	hw_outb(PIT_CH2_DATA, 0xFF);
	hw_outb(PIT_CH2_DATA, 0xFF);
	hw_outb(PORT_61, (uint8_t)((p61 & ~P61_SPKR) | P61_GATE2));
	wait_advance(&start);
	a = read_ref(pit2_read, 0);
	window.from = a.timer;
	if (!wait_advance(&window)) {
		hw_outb(PORT_61, p61);
		return false;
	}
	b = read_ref(pit2_read, 0);
	/* OUT2 goes high when the count passes zero: a window stretched past
	 * 55 ms (a long SMI, a descheduled emulator) wrapped and is unusable. */
	wrapped = (hw_inb(PORT_61) & P61_OUT2) != 0;
	hw_outb(PORT_61, p61);
	elapsed = (a.timer - b.timer) & 0xFFFF;
	if (wrapped || elapsed < target || b.tsc <= a.tsc)
		return false;   /* the count did not run, or wrapped */
	*hz = (b.tsc - a.tsc) * PIT_HZ / elapsed;
	*ticks_out = elapsed;
	return true;
}

struct pm_ctx {
	uint16_t port;
	uint32_t mask;
};

static uint32_t pm_read(void *ctx)
{
	const struct pm_ctx *pm = ctx;
	return hw_inl(pm->port) & pm->mask;
}

/* Two bracketed reads of the ACPI PM timer, 20 ms apart, against the TSC. */
static bool calibrate_pm(uint16_t port, bool ext32, uint64_t *hz)
{
	struct pm_ctx pm = { port, ext32 ? 0xFFFFFFFFu : 0x00FFFFFFu };
	uint32_t target = PMTIMER_HZ / 1000 * CAL_WINDOW_MS;
	struct advance window = { pm_read, &pm, 0, target, pm.mask, false };
	uint32_t delta;
	struct ref_point a, b;

	a = read_ref(pm_read, &pm);
	window.from = a.timer;
	if (!wait_advance(&window))
		return false;
	b = read_ref(pm_read, &pm);
	delta = (b.timer - a.timer) & pm.mask;
	if (delta < target || b.tsc <= a.tsc)
		return false;
	*hz = (b.tsc - a.tsc) * PMTIMER_HZ / delta;
	return true;
}

/*
 * Several windows of each timer, interleaved (PIT, PM, PIT, PM, ...), and
 * the median of each: a window stretched by an SMI (or, in an emulator, by
 * the host descheduling it) cannot move the result, and a slow drift of the
 * conditions affects both timers alike.
 */
static void calibrate_rounds(struct tsc_calibration *c)
{
	uint64_t pit[CAL_ROUNDS], pm[CAL_ROUNDS];
	unsigned i;

	for (i = 0; i < CAL_ROUNDS; i++) {
		unsigned t;
		bool ok = false;
		for (t = 0; c->pit_ok && !ok && t < CAL_WINDOW_TRIES; t++)
			ok = calibrate_pit(&pit[i], &c->pit_ticks);
		c->pit_ok = c->pit_ok && ok;
		ok = false;
		for (t = 0; c->pm_ok && !ok && t < CAL_WINDOW_TRIES; t++)
			ok = calibrate_pm(c->pm_port, c->pm_ext32, &pm[i]);
		c->pm_ok = c->pm_ok && ok;
	}
	if (c->pit_ok)
		c->pit_hz = bstat_median(pit, CAL_ROUNDS);
	if (c->pm_ok)
		c->pm_hz = bstat_median(pm, CAL_ROUNDS);
}

bool timer_calibrate(struct tsc_calibration *c)
{
	struct acpi_pm_timer pm;

	c->error = NULL;
	c->pit_hz = c->pm_hz = 0;
	c->pit_ok = true;
	c->pm_found = acpi_find_pm_timer(&pm);
	c->pm_ok = c->pm_found;
	if (c->pm_found) {
		c->pm_port = pm.port;
		c->pm_ext32 = pm.ext32;
	}
	calibrate_rounds(c);
	if (!c->pit_ok)
		c->error = "PIT channel 2: no undisturbed window in 8 tries (the count did not run, or wrapped past 55 ms)";
	else if (c->pm_found && !c->pm_ok)
		c->error = "ACPI PM timer: no undisturbed window in 8 tries (it did not advance within the spin bound)";
	c->disagreement_ppm = 0;
	if (c->pit_ok && c->pm_ok && c->pit_hz) {
		uint64_t d = c->pit_hz > c->pm_hz ? c->pit_hz - c->pm_hz : c->pm_hz - c->pit_hz;
		c->disagreement_ppm = (uint32_t)(d * 1000000 / c->pit_hz);
	}
	g_tsc_hz = c->pit_ok ? c->pit_hz : c->pm_ok ? c->pm_hz : 0;
	return c->pit_ok;
}

uint64_t tsc_hz(void)
{
	return g_tsc_hz;
}

uint64_t tsc_ticks_for_us(uint64_t us)
{
	uint64_t hz = g_tsc_hz ? g_tsc_hz : 2000000000ull;  /* unknown: assume fast, wait longer */
	if (us > 1000000000ull)
		us = 1000000000ull;
	return us * (hz / 1000000);
}
