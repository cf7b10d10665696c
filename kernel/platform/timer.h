/*
 * Timers: the TSC calibrated against fixed-frequency timers on every boot,
 * so every figure in the report is elapsed (wall-clock) time.
 * PIT: 1.193182 MHz (Intel 8254 data sheet); ACPI PM timer: 3.579545 MHz
 * (ACPI 6.4, 4.8.3.3).
 */
#ifndef CQ_KERNEL_TIMER_H
#define CQ_KERNEL_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#define PIT_HZ     1193182u
#define PMTIMER_HZ 3579545u

struct tsc_calibration {
	bool pit_ok;
	uint64_t pit_hz;         /* TSC ticks per second measured against PIT channel 2 */
	uint32_t pit_ticks;      /* length of the window, PIT ticks */
	bool pm_found;           /* ACPI FADT named a PM timer */
	bool pm_ok;
	uint64_t pm_hz;          /* TSC ticks per second measured against the PM timer */
	uint16_t pm_port;
	bool pm_ext32;
	uint32_t disagreement_ppm; /* |pit_hz - pm_hz| / pit_hz, parts per million */
	const char *error;       /* why a calibration failed, or NULL */
};

/*
 * Calibrates the TSC (needs CPUID.1:EDX.TSC) against PIT channel 2 and,
 * when ACPI names one, the PM timer: five 20 ms windows of each, taken
 * alternately, each window's ends read bracketed by TSC reads, and the
 * median of each. Every wait is bounded by an
 * iteration count; a timeout is reported in c->error.
 * Returns true when at least the PIT calibration succeeded.
 */
bool timer_calibrate(struct tsc_calibration *c);

/* The TSC frequency in force (Hz), 0 before calibration. */
uint64_t tsc_hz(void);

/* TSC ticks for a duration in microseconds (saturating), after calibration. */
uint64_t tsc_ticks_for_us(uint64_t us);

#endif
