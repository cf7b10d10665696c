/* TSC calibration against PIT channel 2 and the ACPI PM timer. See timer.h. */
#include "timer.h"

#include "acpi.h"
#include <stddef.h>

#include "hw.h"

/* Intel 8254 PIT and the PC's port 0x61 (NMI status and control). */
#define PIT_CH2_DATA   0x42
#define PIT_MODE       0x43
#define   PIT_MODE_CH2_LOHI_MODE0 0xB0   /* channel 2, lo/hi byte, mode 0, binary */
#define PORT_61        0x61
#define   P61_GATE2    0x01              /* timer 2 gate */
#define   P61_SPKR     0x02              /* speaker data enable */
#define   P61_OUT2     0x20              /* timer 2 output, read-only */

#define CAL_WINDOW_MS     50
#define CAL_ROUNDS        5              /* median of 5 windows per timer */
#define CAL_MAX_SPINS     20000000u      /* bound on any calibration loop */

static uint64_t g_tsc_hz;

static bool calibrate_pit(uint64_t *hz, uint32_t *ticks_out)
{
	uint32_t ticks = PIT_HZ * CAL_WINDOW_MS / 1000;  /* 59659, fits 16 bits */
	uint8_t p61 = hw_inb(PORT_61);
	uint64_t t0, t1;
	uint32_t spins = 0;

	hw_outb(PORT_61, (uint8_t)((p61 & ~P61_SPKR) & ~P61_GATE2));
	hw_outb(PIT_MODE, PIT_MODE_CH2_LOHI_MODE0);
	hw_outb(PIT_CH2_DATA, (uint8_t)(ticks & 0xFF));
	hw_outb(PIT_CH2_DATA, (uint8_t)(ticks >> 8));
	/* Raising the gate starts the count; OUT2 goes high at terminal count. */
	hw_outb(PORT_61, (uint8_t)((p61 & ~P61_SPKR) | P61_GATE2));
	t0 = hw_rdtsc();
	while (!(hw_inb(PORT_61) & P61_OUT2)) {
		if (++spins >= CAL_MAX_SPINS) {
			hw_outb(PORT_61, p61);
			return false;
		}
	}
	t1 = hw_rdtsc();
	hw_outb(PORT_61, p61);
	if (spins == 0)
		return false;   /* OUT2 already high: the PIT did not restart */
	*hz = (t1 - t0) * PIT_HZ / ticks;
	*ticks_out = ticks;
	return true;
}

static uint32_t pm_read(uint16_t port, uint32_t mask)
{
	return hw_inl(port) & mask;
}

static bool calibrate_pm(uint16_t port, bool ext32, uint64_t *hz)
{
	uint32_t mask = ext32 ? 0xFFFFFFFFu : 0x00FFFFFFu;
	uint32_t target = PMTIMER_HZ / 1000 * CAL_WINDOW_MS;
	uint32_t start, now, prev, delta = 0, spins = 0;
	uint64_t t0, t1;

	/* Start on a tick edge so the window is measured from a known point. */
	prev = pm_read(port, mask);
	do {
		start = pm_read(port, mask);
		if (++spins >= CAL_MAX_SPINS)
			return false;
	} while (start == prev);
	t0 = hw_rdtsc();
	spins = 0;
	do {
		now = pm_read(port, mask);
		delta = (now - start) & mask;
		if (++spins >= CAL_MAX_SPINS)
			return false;
	} while (delta < target);
	t1 = hw_rdtsc();
	*hz = (t1 - t0) * PMTIMER_HZ / delta;
	return true;
}

/* Median of CAL_ROUNDS values (insertion sort; n is tiny). */
static uint64_t median(uint64_t *v, unsigned n)
{
	unsigned i, j;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
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
		if (c->pit_ok)
			c->pit_ok = calibrate_pit(&pit[i], &c->pit_ticks);
		if (c->pm_ok)
			c->pm_ok = calibrate_pm(c->pm_port, c->pm_ext32, &pm[i]);
	}
	if (c->pit_ok)
		c->pit_hz = median(pit, CAL_ROUNDS);
	if (c->pm_ok)
		c->pm_hz = median(pm, CAL_ROUNDS);
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
		c->error = "PIT channel 2 did not reach terminal count within the spin bound";
	else if (c->pm_found && !c->pm_ok)
		c->error = "ACPI PM timer did not advance within the spin bound";
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

void tsc_delay_us(uint64_t us)
{
	uint64_t t0 = hw_rdtsc(), n = tsc_ticks_for_us(us);
	while (hw_rdtsc() - t0 < n)
		;
}
